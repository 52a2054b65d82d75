/*===- registry.c - Per-descriptor state keyed by descriptor address ------===*
 *
 * The plugin emits one constant idiom_kernel_desc per source loop, so the
 * address identifies the idiom for the life of the process. Entries are created on
 * first use and never freed; the report at exit walks them in creation order.
 *
 * An entry is small (about 3 KB): the cost model's size classes of a
 * descriptor are created at their first use (idiomrt_cost_class_get) and
 * its kernel variants at its first build (program_cache.c), so a process
 * whose sites stay on the host clears and touches a few cache lines per
 * site at its first call, not 19 KB (bench/tiny_host.sh).
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"

#include <stdlib.h>

#define NBUCKETS 256

IDIOMRT_START_DATA static pthread_mutex_t g_reg_lock = PTHREAD_MUTEX_INITIALIZER;
IDIOMRT_START_DATA static idiomrt_entry *g_buckets[NBUCKETS];
IDIOMRT_START_DATA static idiomrt_entry *g_first, *g_last;

static unsigned bucket_of(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (unsigned)(x % NBUCKETS);
}

idiomrt_entry *idiomrt_entry_get(const idiom_kernel_desc *desc) {
  unsigned b = bucket_of(desc);
  pthread_mutex_lock(&g_reg_lock);
  idiomrt_entry *e = g_buckets[b];
  while (e && e->desc != desc)
    e = e->bucket_next;
  if (!e) {
    e = calloc(1, sizeof *e);
    if (e) {
      e->desc = desc;
      e->offsets = idiomrt_source_offsets(desc);
      pthread_mutex_init(&e->lock, NULL);
      pthread_mutex_init(&e->stats_lock, NULL);
      idiomrt_profile_seed(e);
      e->bucket_next = g_buckets[b];
      g_buckets[b] = e;
      if (g_last)
        g_last->next = e;
      else
        g_first = e;
      g_last = e;
    }
  }
  pthread_mutex_unlock(&g_reg_lock);
  return e;
}

idiomrt_entry *idiomrt_entry_try(const idiom_kernel_desc *desc) {
  if (pthread_mutex_trylock(&g_reg_lock) != 0)
    return NULL;
  idiomrt_entry *e = g_buckets[bucket_of(desc)];
  while (e && e->desc != desc)
    e = e->bucket_next;
  pthread_mutex_unlock(&g_reg_lock);
  return e;
}

void idiomrt_registry_after_fork(void) {
  pthread_mutex_init(&g_reg_lock, NULL);
  for (idiomrt_entry *e = g_first; e; e = e->next) {
    pthread_mutex_init(&e->lock, NULL);
    pthread_mutex_init(&e->stats_lock, NULL);
    if (e->alt) {
      pthread_mutex_init(&e->alt->lock, NULL);
      pthread_mutex_init(&e->alt->stats_lock, NULL);
    }
  }
}

idiomrt_entry *idiomrt_entry_next(const idiomrt_entry *e) {
  pthread_mutex_lock(&g_reg_lock);
  idiomrt_entry *n = e->next;
  pthread_mutex_unlock(&g_reg_lock);
  return n;
}

idiomrt_entry *idiomrt_entry_first(void) {
  pthread_mutex_lock(&g_reg_lock);
  idiomrt_entry *e = g_first;
  pthread_mutex_unlock(&g_reg_lock);
  return e;
}

idiomrt_entry *idiomrt_entry_second(idiomrt_entry *e) {
  idiomrt_entry *a = __atomic_load_n(&e->alt, __ATOMIC_ACQUIRE);
  if (a)
    return a;
  a = calloc(1, sizeof *a);
  if (!a)
    return NULL;
  a->desc = e->desc;
  a->second = 1;
  a->fp_bits = e->fp_bits;
  pthread_mutex_init(&a->lock, NULL);
  pthread_mutex_init(&a->stats_lock, NULL);
  idiomrt_entry *none = NULL;
  if (!__atomic_compare_exchange_n(&e->alt, &none, a, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    pthread_mutex_destroy(&a->lock);
    pthread_mutex_destroy(&a->stats_lock);
    free(a);
    return none;
  }
  return a;
}

/*--- the cost model's size classes of a descriptor (rt_registry.h) -------*/

static const idiomrt_cost_class g_zero_class;

idiomrt_cost_class *idiomrt_cost_class_get(idiomrt_cost_site *s, unsigned c) {
  idiomrt_cost_class *k = s->cls[c];
  if (k)
    return k;
  if (s->nfirst < IDIOMRT_COST_INLINE)
    k = &s->first[s->nfirst++];
  else if (!(k = calloc(1, sizeof *k)))
    return NULL;
  __atomic_store_n(&s->cls[c], k, __ATOMIC_RELEASE);
  return k;
}

const idiomrt_cost_class *idiomrt_cost_class_peek(const idiomrt_cost_site *s,
                                                  unsigned c) {
  const idiomrt_cost_class *k = idiomrt_cost_class_find(s, c);
  return k ? k : &g_zero_class;
}
