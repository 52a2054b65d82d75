/*===- idiomrt.h - C ABI of the Idiom offload runtime ---------------------===*
 *
 * Calls that the Idiom plugin stitches into a program in place of a loop nest.
 * The runtime loads libOpenCL.so.1 with dlopen on first use, so a program
 * built with the plugin still runs (sequentially, through the original loop)
 * where no OpenCL is installed. No exceptions cross this interface; every
 * entry point reports through its return value and leaves the calling
 * thread's errno as it found it (the loops it replaces do not write errno;
 * OpenCL, the loader and the caches may).
 *
 * Environment:
 *   IDIOM_DEVICE=auto|gpu|cpu|seq  device choice (auto: first GPU, else CPU;
 *                                  seq: always decline, run the original loop)
 *   IDIOM_STATS=1|json|FILE.json   per-idiom report at exit: text on stderr
 *                                  (1), one JSON document on stderr (json)
 *                                  or in FILE.json ("%p": the process id)
 *   IDIOM_MIN_TRIP=N               decline when the call's work < N: the
 *                                  larger of the iteration count and the
 *                                  8-byte words its input ranges hold
 *                                  (default 4096; runtime/README.md)
 *   IDIOM_CACHE_DIR=DIR            on-disk program cache (default
 *                                  $XDG_CACHE_HOME/idiom or ~/.cache/idiom;
 *                                  "off" disables it)
 *   IDIOM_DEBUG=1                  trace device choice, builds, cache use
 *                                  and every decline on stderr
 *   IDIOM_OPENCL_LIBRARY=PATH      library to dlopen instead of
 *                                  libOpenCL.so.1 (a missing one makes every
 *                                  run decline with "no OpenCL loader")
 *   IDIOM_TUNE=on|off              on (default): time the variants of a
 *                                  descriptor on first use per size class
 *                                  and keep the fastest; off: variant 0
 *   IDIOM_TUNE_MIN=N               iteration counts below N run variant 0
 *                                  untimed (default 1048576), unless the
 *                                  call's idiom_work_hint reaches N
 *   IDIOM_VARIANT=K                always run variant K (benchmarks); a
 *                                  descriptor without a usable variant K
 *                                  declines
 * All of them are read once, on the first call into the runtime.
 *
 * Kernel conventions (the contract with rewrite/'s OpenCL generator):
 *   Map idiom (kind IDIOM_MAP), kernel `<name>`:
 *     parameters are exactly the idiom_arg array, in order: a buffer becomes a
 *     `__global T *` pointing at the first byte of its host range, a scalar is
 *     passed by value. The NDRange has `ndims` dimensions; OpenCL dimension 0
 *     iterates the innermost loop: global[0] >= sizes[ndims-1], ...,
 *     global[ndims-1] >= sizes[0] (rounded up to the work-group size; the
 *     kernel guards its own bounds).
 *   Element offsets (maps only): a source whose shared part (before the
 *   first variant line) has the line
 *     //@idiom-offsets E_0 E_1 ...
 *   (E_j the element bytes of the j-th buffer argument) has map kernels
 *   with one more parameter per buffer argument after the idiom_arg ones
 *   (and before a load-balanced variant's row blocks), `const long
 *   <b>_off`, in buffer order: the buffer's range starts that many elements
 *   into the buffer passed. The runtime passes 0, except inside a residency
 *   region, where a range strictly inside a device-resident range is passed
 *   as that range's buffer and the offset (when it is a whole number of
 *   elements; otherwise, and for sources without the line, as a view
 *   buffer filled by a device copy).
 *   Reduction idiom (kind IDIOM_REDUCE), two kernels, two-stage reduction
 *   (seeds/003, "parallel reduction"; seeds/004, section 5):
 *     `<name>_partial(<idiom_args...>, __global R_0 *part_0, ...,
 *                     __local R_0 *scratch_0, ...)`
 *        1-D NDRange of G work-groups of L work-items; work-group g writes
 *        its partial result of accumulator k to part_k[g].
 *     `<name>_final(const long m, __global R_0 *part_0, ...,
 *                   __global R_0 *out_0, ..., __local R_0 *scratch_0, ...)`
 *        one work-group of L work-items reduces part_k[0..m) into out_k[0].
 *   A reduction's kernels may have more slots than the program has
 *   accumulators (a compensated sum: out_0 the finished sum, out_1 its
 *   compensation); nresults and result_bytes then count every slot, and the
 *   caller reads the accumulators' slots only.
 *   L is a power of two chosen by the runtime, or the kernels'
 *   reqd_work_group_size; scratch_k holds L elements.
 *
 * Variants (desc->nvariants >= 2): the source holds several variants of the
 * same kernel(s); variant 0 uses the names above, variant k >= 1 appends
 * `_v<k>` to the base name (`<name>_v<k>`, `<name>_v<k>_partial`,
 * `<name>_v<k>_final`). Each variant's kernels are preceded by a line
 *     //@idiom-variant K wg=X[xY] ept=E[xE1[xE2]|/W]: description
 * ept (elements per work-item step, default 1): ept=1/W gives a 1-D map
 * variant W work-items per iteration (global[0] >= sizes[0] * W: the row
 * lanes of a map of row sums, docs/Rewrite.md; not timed on a CPU device,
 * IDIOM_VARIANT still runs it); a map variant covers E
 * consecutive iterations of the innermost loop per work-item (global[0] >=
 * ceil(sizes[ndims-1] / E)) and, for 2-D maps, E1 consecutive iterations of
 * the outer loop (global[1] >= ceil(sizes[0] / E1); for 3-D maps,
 * ept=E0xE1xE2 gives each work-item E2 consecutive planes, the outermost
 * loop, walked in order: global[2] >= ceil(sizes[0] / E2); global[d] is rounded up
 * to the work-group size, so a tiled GEMM with wg=16x16 ept=8x8 gets one
 * work-group per 128x128 tile); wg (0: the runtime chooses) is the map's
 * work-group size when the kernel has no reqd_work_group_size; a reduction variant reads E consecutive
 * elements per grid-stride step (G = min(ceil(n / (L * E)), limit)). The
 * lines are also where the runtime cuts the source when the whole does not
 * build: the text before the first line is shared by every variant. The
 * first run of a descriptor per device and size class (floor(log2) of the
 * iteration count, from IDIOM_TUNE_MIN up) times every usable variant on the
 * real input (kernels only, profiling events, median of up to 3 runs;
 * outputs are restored between runs) and keeps the fastest, in memory and in
 * IDIOM_CACHE_DIR/tuning/; the chosen variant then runs for real. A source
 * with the line `//@idiom-fixed-order cpu=C gpu=G` before its first variant
 * (a reduction whose result depends on the order of combination: floating
 * point) is never timed: it runs variant C on a CPU, G on a GPU, 0 on other
 * devices (0, else the first usable one, when that one is not usable), so
 * that its result is the same on every run on one device. A variant
 * that does not build, does not fit the device or fails is skipped. With
 * nvariants 0 or 1 there is one variant named as above (older objects).
 * See runtime/README.md.
 *   Buffers of 0 bytes are passed as a 1-byte device buffer. Every buffer but
 *   a dense OUT one is copied to the device; after the last kernel completed, the bytes of an
 *   OUT or INOUT range that the kernels changed are written back (the whole
 *   range with IDIOM_ARG_DENSE). Inside a residency region
 *   (idiom_region_begin) buffers stay on the device between runs and are
 *   copied back at the region's end. See runtime/README.md.
 *
 *===----------------------------------------------------------------------===*/
#ifndef IDIOMRT_H
#define IDIOMRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Limits that idiom_run validates in a descriptor: one outside them is
/// declined ("invalid descriptor: ...") on every call. The plugin checks the
/// same constants at compile time and does not offload an idiom beyond them.
#define IDIOM_MAX_RESULTS 8      ///< accumulators of one reduction
#define IDIOM_MAX_RESULT_BYTES 8 ///< bytes of one accumulator
#define IDIOM_MAX_MAP_DIMS 3     ///< iteration-space rank of a map
#define IDIOM_MAX_REDUCE_DIMS 1  ///< iteration-space rank of a reduction

/// Kind of an offloaded idiom.
enum idiom_kind {
  IDIOM_MAP = 0,    ///< element-wise map over a 1-D or 2-D iteration space
  IDIOM_REDUCE = 1  ///< scalar reduction with one or more accumulators
};

/// Kind of one kernel argument.
enum idiom_arg_kind {
  IDIOM_ARG_BUF_IN = 0,    ///< buffer read by the kernel
  IDIOM_ARG_BUF_OUT = 1,   ///< buffer written (host contents copied in too,
                           ///< unless IDIOM_ARG_DENSE)
  IDIOM_ARG_BUF_INOUT = 2, ///< buffer read and written
  IDIOM_ARG_I32 = 3,       ///< scalar int / uint
  IDIOM_ARG_I64 = 4,       ///< scalar long / ulong
  IDIOM_ARG_F32 = 5,       ///< scalar float
  IDIOM_ARG_F64 = 6        ///< scalar double
};

/// Static description of one offloaded idiom; the plugin emits one constant
/// per source loop (copies of a loop inlined into several call sites with
/// the same location share it; copies with different locations have their
/// own descriptors, which may share name and source). The runtime keeps
/// per-descriptor state (built program, stats) keyed by the descriptor's
/// address.
typedef struct idiom_kernel_desc {
  const char *name;   ///< kernel base name; descriptors of one module with
                      ///< the same name have the same source
  const char *loc;    ///< source location, "file.c:LINE"
  const char *idiom;  ///< idiom name for reports, e.g. "scalar-reduction"
  const char *source; ///< OpenCL C source of the kernel(s), NUL-terminated
  uint32_t kind;      ///< enum idiom_kind
  uint32_t ndims;     ///< iteration-space rank: 1 to 3 (maps), 1 (reductions)
  uint32_t nresults;  ///< reductions: accumulators (<= IDIOM_MAX_RESULTS), else 0
  uint32_t nvariants; ///< kernel variants in source (0 or 1: one variant)
  const uint32_t *result_bytes; ///< reductions: size of accumulator k (1..8)
} idiom_kernel_desc;

/// Bits of idiom_arg::flags.
enum idiom_arg_flags {
  /// OUT / INOUT buffers: the kernel writes every byte of [ptr, ptr + bytes)
  /// on every run, so the runtime may copy the whole range back. Without it
  /// (0, what objects built before flags existed pass) the runtime writes
  /// back only the bytes whose device value differs from what it copied in.
  IDIOM_ARG_DENSE = 1u,
  /// IN buffers: the range may overlap OUT / INOUT ranges of the same run,
  /// and the kernel reads its bytes as they were before the run (a device
  /// copy of its own, written before the kernel: the out-of-place product
  /// of PolyBench trmm, whose result is then copied back over the operand;
  /// docs/ARCHITECTURE.md, "TRMM"). Inside a residency region the copy is
  /// made on the device from the range table's entry when one holds the
  /// range (runtime/README.md, "Snapshot inputs"). Such an overlap is
  /// declined by idiom_run_pair; outputs overlapping each other are
  /// declined as before.
  /// On any other kind of argument it is invalid ("invalid arguments:
  /// flags").
  IDIOM_ARG_SNAPSHOT = 2u,
  /// IN buffers: the kernel reads each element of this argument only in the
  /// work item that writes the same element (same index, same element type)
  /// of one OUT / INOUT argument, and before it writes it: an in-place call
  /// such as NAS MG's `resid(u, r, r)` (r = v - A u with v == r). The range
  /// may then be identical to that output's range (same pointer and bytes):
  /// the run binds the output's device buffer to this argument as well
  /// (the output then counts as read: copied in, kept resident inside a
  /// residency region). A range disjoint from every output runs as usual;
  /// any other overlap is declined ("overlapping input/output ranges"), and
  /// so is an identical range in idiom_run_pair and CSR runs. On any other
  /// kind of argument it is invalid ("invalid arguments: flags").
  IDIOM_ARG_INPLACE = 4u
};

/// One kernel argument. For buffers, [ptr, ptr + bytes) is the host range the
/// kernel may touch; the device buffer starts at ptr.
typedef struct idiom_arg {
  uint32_t kind;  ///< enum idiom_arg_kind
  uint32_t flags; ///< enum idiom_arg_flags bits (the former pad: 0 is safe)
  void *ptr;      ///< buffers: first byte of the host range
  uint64_t bytes; ///< buffers: length of the range in bytes
  union {
    int32_t i32;  ///< IDIOM_ARG_I32
    int64_t i64;  ///< IDIOM_ARG_I64
    float f32;    ///< IDIOM_ARG_F32
    double f64;   ///< IDIOM_ARG_F64
  } value;        ///< scalars: the value (4 or 8 bytes passed to the kernel)
} idiom_arg;

/// Runs one idiom instance.
///
/// \param desc    static description of the idiom
/// \param args    nargs kernel arguments, in kernel parameter order
/// \param sizes   desc->ndims iteration counts, outermost loop first
/// \param results reductions: desc->nresults slots of 8 bytes; slot k receives
///                accumulator k's reduction of all iterations starting from
///                the operator's identity (the caller combines it with the
///                accumulator's initial value), as result_bytes[k] bytes at
///                the start of the slot (the rest is left as it was).
///                Unused for maps (may be NULL).
/// \returns 1 when the idiom ran and every output is written, 0 when the
///          runtime declined (no device, IDIOM_DEVICE=seq, build failure,
///          overlapping output ranges, work below IDIOM_MIN_TRIP,
///          OpenCL error, a floating-point environment the device does not
///          share, a forked child, a small RLIMIT_AS, or a runtime busy on
///          another thread or re-entered from a signal handler: it never
///          waits; with the cost model on (IDIOM_COST, runtime/README.md):
///          the device still starting or building the kernels in the
///          background, or the original loop measured or expected faster).
///          On 0 nothing was written and the caller runs the original loop,
///          between idiom_host_begin and idiom_host_end when it can.
int idiom_run(const idiom_kernel_desc *desc, const idiom_arg *args,
              uint32_t nargs, const uint64_t *sizes, void *results);

/// Runs two map idioms that one loop nest computes together (a fused pair
/// of GEMVs, PolyBench bicg: q = A p and s = A^T r in one nest;
/// docs/ARCHITECTURE.md, "GEMV pairs"), both or neither: first with
/// args[0, nfirst) and sizes[0, first->ndims), then second with
/// args[nfirst, nfirst + nsecond) and the next second->ndims sizes, each
/// as idiom_run runs it (variants, tuning, declines). The first's outputs
/// reach the host only once the second has run too.
///
/// \returns 1 when both ran and every output of both is written; 0 when
///          either declined (idiom_last_reason says why), and then no byte
///          of the host was written: the caller runs the original nest.
///          Also 0 when an OUT / INOUT range of either overlaps any other
///          range of either ("overlapping input/output ranges": the nest
///          interleaves the two products, so they are apart or not split),
///          and inside a residency region. idiom_last_kernel_ms is the sum
///          of both kernels' times.
int idiom_run_pair(const idiom_kernel_desc *first,
                   const idiom_kernel_desc *second, const idiom_arg *args,
                   uint32_t nfirst, uint32_t nsecond, const uint64_t *sizes);

/// Records that the caller ran the original loop for desc, without calling
/// idiom_run (for example because a compile-time guard failed). reason is a
/// string (copied; up to 159 bytes are kept). Used only for IDIOM_STATS.
void idiom_note_fallback(const idiom_kernel_desc *desc, const char *reason);

/// Starts timing the original loop of desc that the caller runs because the
/// calling thread's idiom_run for desc just returned 0. The plugin calls it
/// on every decline path, just before the original loop.
///
/// \param desc the descriptor passed to that idiom_run
/// \returns a non-zero token when the runtime wants this run of the loop
///          timed (it declined for the cost model or because the device was
///          still starting: the host time is what the cost model compares
///          the device with), else 0. One clock read when non-zero; never
///          fails, never blocks, takes no lock.
uint64_t idiom_host_begin(const idiom_kernel_desc *desc);

/// Ends the measurement begun by idiom_host_begin: called after the original
/// loop of desc with the token it returned (0 is accepted and does nothing,
/// so a caller may call it on every path out of the loop). The elapsed time
/// (CLOCK_MONOTONIC, ns) becomes a host sample of desc's size class. With
/// token 0, desc may be NULL (the plugin passes NULL off the declined path).
/// A token that is not the calling thread's latest (a nested or re-entered
/// measurement replaced it) is ignored; never blocks (a sample that would
/// wait for a lock is dropped).
void idiom_host_end(const idiom_kernel_desc *desc, uint64_t token);

/// Ends, as idiom_host_end does, the calling thread's measurement that
/// idiom_host_begin began on the declined path of the site whose host hint
/// word is hint (the idiom_host_hint call just before it named that word);
/// does nothing when there is none. The plugin calls it on every path out
/// of the original loop with the site's word, a constant (inside a loop,
/// while idiom_pending_work is nonzero: below): a token and a
/// descriptor passed in registers stayed live across the loop and made the
/// register allocator rematerialize addresses inside tight host loops
/// (nas-parboil/tpacf.c, bench/host_overhead.sh); and a word, unlike the
/// descriptor, keeps no kernel source alive where the guards fold the
/// call away.
void idiom_host_end_site(const uint64_t *hint);

/// Bits of a host hint word (idiom_host_hint): the low IDIOM_HINT_TAG_BITS
/// hold the size tag, the rest the calls left.
#define IDIOM_HINT_TAG_BITS 8
/// A size tag with this bit set, IDIOM_HINT_BELOW | t, matches every key
/// whose own tag is at most t (a work-gate hint: every call of those size
/// classes is below IDIOM_MIN_TRIP); a tag without it matches its own.
#define IDIOM_HINT_BELOW 128u

/// Asks for a host hint after the calling thread's idiom_run for desc
/// returned 0 (the plugin calls it on the declined path, before
/// idiom_host_begin). When the cost model declined for a reason its next
/// calls of that size class would repeat (the device cannot win, or the
/// host measured faster and the device is not due to be measured again;
/// inside a residency region only while it holds nothing on the device),
/// the runtime writes *hint = tag | n <<
/// IDIOM_HINT_TAG_BITS with tag = floor(log2(key)) + 1 and n >= 1 the calls
/// the caller may skip (64, or up to 1024 for host-floor declines in a
/// row); otherwise it leaves *hint alone. After a work-gate decline (work
/// below IDIOM_MIN_TRIP, model on) the tag is IDIOM_HINT_BELOW |
/// floor(log2(IDIOM_MIN_TRIP)): every smaller size class too.
///
/// The caller's contract (passes/Stitching.cpp): before idiom_run, with
/// key its own function of the sizes (the product of the iteration counts),
/// it reads *hint with a relaxed atomic load and, when the tag matches
/// key's (t == tag(key), or t >= IDIOM_HINT_BELOW + tag(key)) and n >= 1,
/// stores *hint - (1 << IDIOM_HINT_TAG_BITS) (relaxed)
/// and runs the original loop without calling idiom_run (inside a region
/// after idiom_region_sync, as on a decline). The original loop is always a valid execution; a
/// racy store between threads only changes how many calls skip. The
/// runtime counts the skipped calls from the word in IDIOM_STATS
/// ("host-hint"). One hint word per descriptor; never fails, never blocks.
void idiom_host_hint(const idiom_kernel_desc *desc, uint64_t *hint,
                     uint64_t key);

/// Bits of idiom_work_hint's flags.
enum idiom_work_flags {
  /// Every iteration of the original nest's innermost loop extends one
  /// chain of dependent floating-point additions or multiplications in
  /// program order (a reduction carried by the innermost loop, in a register
  /// or in one memory location, without the `reassoc` fast-math flag): no
  /// compiler may vectorize or interleave it, so the loop needs at least one
  /// floating-point operation latency per iteration.
  IDIOM_WORK_FP_CHAIN = 1u
};

/// Says how much host work the calling thread's next idiom_run (or
/// idiom_run_csr) of desc replaces, for the cost model's first call of a
/// size class, before any host time of it is known ("device-wait",
/// runtime/README.md, "Start-up and cost model"). The plugin calls it just
/// before idiom_run for nests whose innermost body runs more often than the
/// iteration space counts (a map of inner reductions: GEMM, TRMM, GEMV) or
/// carries a floating-point chain.
///
/// \param desc  the descriptor the next idiom_run passes (a hint for another
///              descriptor is ignored)
/// \param iters how many times the original nest's innermost body runs in
///              this call (0: not known); only a lower bound of its host
///              time is derived from it
/// \param flags enum idiom_work_flags bits (other bits are ignored)
///
/// The hint is the calling thread's, consumed by its next idiom_run (or
/// idiom_run_csr) whatever its descriptor. It only steers a speed decision:
/// a wrong figure never changes a result. Never fails, never blocks.
void idiom_work_hint(const idiom_kernel_desc *desc, uint64_t iters,
                     uint32_t flags);

/// Why the calling thread's most recent idiom_run returned 0, e.g.
/// "work below threshold"; NULL when it returned 1 or there was none.
/// The string belongs to the runtime and stays valid until the thread's next
/// idiom_run. For tests and diagnostics.
const char *idiom_last_reason(void);

/// Device time in milliseconds of the kernels of the calling thread's most
/// recent idiom_run that returned 1 (the run itself, not the timing of
/// variants on first use); a negative value when there was none or it
/// declined. For benchmarks.
double idiom_last_kernel_ms(void);

/// The variant (0 .. nvariants-1) that the calling thread's most recent
/// successful idiom_run executed; -1 when there was none or it declined.
int idiom_last_variant(void);

/// Opens a residency region on the calling thread (map promotion: CGCM,
/// Jablin et al., PLDI 2011). Until the matching idiom_region_end, the
/// thread's idiom_run calls keep their buffers on the device: a buffer range
/// already there and valid is not copied again, outputs are not copied back
/// but stay on the device (device-valid), and a reduction returns only its
/// scalars. Regions nest; only the outermost end copies back. Cheap when
/// nothing runs on a device (IDIOM_DEVICE=seq, no OpenCL): a counter.
///
/// The caller promises that between begin and end no code other than
/// idiom_run, idiom_region_sync and code that touches none of the region's
/// buffers runs on this thread, and that every host access to those buffers
/// inside the region is preceded by idiom_region_sync (the plugin proves
/// this before placing the calls: docs/ARCHITECTURE.md, "Residency").
/// Other threads are not affected: their runs never use this thread's
/// device copies. A call from a signal handler that interrupted the runtime
/// on this thread does nothing (the handler's runs then decline).
void idiom_region_begin(void);

/// Closes the calling thread's innermost residency region. At the outermost
/// one, every range whose device copy is newer than the host's is copied
/// back (only the bytes the kernels changed, or the whole range of an
/// IDIOM_ARG_DENSE output) and every device copy is released, so nothing is
/// kept across regions. Without an open region: does nothing. If a copy back
/// fails (a lost device), the process prints the error on stderr and aborts
/// rather than run on with stale memory.
void idiom_region_end(void);

/// Inside a region: the host is about to access memory that the region's
/// idioms may hold (the original loop of a stitched idiom runs next).
/// Copies every device-newer range back and releases every device copy; the
/// region stays open and later runs fill it again. idiom_run does the same
/// itself before it returns 0 (declined), unless its caller syncs with
/// idiom_region_sync_args (below). Outside a region: nothing.
void idiom_region_sync(void);

/// Inside a region: the original loop of the stitched idiom desc runs next
/// on the host, and it accesses no memory of the region's idioms outside
/// the buffer ranges of args (nargs arguments, exactly as idiom_run would
/// be passed them; the plugin emits the call only where it proved that:
/// docs/ARCHITECTURE.md, "Residency", partial syncs). Syncs only what that
/// loop may touch: every device copy that overlaps an OUT or INOUT range is
/// copied back when device-newer and released (the loop writes it); every
/// one that overlaps only IN ranges is copied back when device-newer and
/// kept (the loop only reads it); the others stay on the device.
///
/// args NULL, a buffer argument with a NULL pointer (a range not known on
/// this path) or a range past the end of memory: the full
/// idiom_region_sync. Once a thread has called it for desc inside a region,
/// a declined idiom_run of desc syncs only its own ranges too (the caller
/// syncs the rest here, on every path into the loop). Outside a region:
/// nothing. Never fails; a failed copy back aborts as in idiom_region_end.
void idiom_region_sync_args(const idiom_kernel_desc *desc,
                            const idiom_arg *args, uint32_t nargs);

/// memmove(dst, src, n) inside a region (the plugin calls it in place of a
/// memcpy or memmove in a region's loop, such as the copy of a Jacobi time
/// loop). When a device copy of this thread's region holds all of
/// [src, src + n) and one holds all of [dst, dst + n) (on one device, not
/// overlapping within one buffer), the bytes are copied on the device and
/// [dst, dst + n) becomes device-newer; otherwise the device copies holding
/// bytes of either range go back to the host first (those of dst are then
/// released) and the host copies. Outside a region: memmove.
void idiom_region_memmove(void *dst, const void *src, uint64_t n);

/// memset(dst, c, n) inside a region, as idiom_region_memmove: filled on the
/// device when one device copy holds all of [dst, dst + n).
void idiom_region_memset(void *dst, int c, uint64_t n);

/// A host load inside a region (the plugin calls it before a load of a
/// region's loop that may read an idiom's buffer): the elements
/// [p + i * stride, p + i * stride + size), i < count (stride in bytes, may
/// be negative or smaller than size: then the range they span), are made
/// current in host memory, each byte that a device copy of this thread's
/// region holds newer than the host read back from it (only the bytes that
/// differ from the host's, as a copy-back). The device copies stay. A loop
/// of host loads calls it once before the loop with the range SCEV gives.
/// Outside a region, or with no device copy: nothing.
void idiom_region_load(const void *p, uint64_t size, int64_t stride,
                       uint64_t count);

/// A host store inside a region (the plugin calls it after a store of a
/// region's loop that may write an idiom's buffer, and after a loop of
/// stores, which is preceded by idiom_region_load of the same range): the
/// host bytes of those elements are written into every device copy that
/// holds them (write-through), so device and host agree on them. Outside a
/// region, or with no device copy: nothing.
void idiom_region_store(const void *p, uint64_t size, int64_t stride,
                        uint64_t count);

/// The number of threads inside a region (between an outermost
/// idiom_region_begin and its idiom_region_end). The plugin's code reads it
/// (a relaxed atomic load) before a copy it routes through
/// idiom_region_memmove / idiom_region_memset and, while it is 0, copies
/// inline as the program did: a struct copy in a loop that may form a
/// region keeps its cost when no region is open. A thread's own region_begin
/// precedes its copies, so a copy inside a region is never inline.
extern int idiom_regions_open;

/// Nonzero while idiom_region_sync (or idiom_region_sync_args),
/// idiom_region_load, idiom_region_store or
/// idiom_host_end_site may have something to do in some thread: device
/// copies may exist (bit 30, set when the OpenCL library is loaded or a
/// region's epoch is handed out, never cleared) or host-time measurements
/// are pending (the count, in the bits below). The plugin's code reads it
/// (a relaxed atomic load) before each call of those four around a
/// fallback loop inside a loop and makes the call only while it is
/// nonzero: 0 means each
/// would return at once in every thread, so a program whose sites stay on
/// the host runs its fallback loops with a load and a branch around them
/// (bench/tiny_host.sh). A thread's own changes of its state change the
/// word before the state can need a call (runtime/lib/pending.c). Defined
/// weakly by the runtime and by each module of the plugin (next to its
/// host hint words): the linker keeps one.
extern int idiom_pending_work;

/// The ELF section of the zero-initialised words that a run whose sites
/// stay on the host reads and writes from its first call (the host hint
/// words, idiom_pending_work, the runtime's start state): a data section
/// (the linker merges .data.* into .data), next to the GOT and to .data's
/// last page, which the dynamic linker and exec write at every start, and
/// not .bss, whose pages each cost a page fault when first read and
/// another when first written (helper "tinypocl", docs/Benchmarks.md).
#define IDIOM_START_DATA_SECTION ".data.idiomrt_start"

/// Bytes copied from the host to the device and back by every idiom_run and
/// region copy-back of the process since it started (either pointer may be
/// NULL). For tests and benchmarks.
void idiom_transfer_bytes(uint64_t *to_device, uint64_t *to_host);

/// CL_DEVICE_NAME of the device idiom_run uses, selecting and initializing it
/// on the first call; NULL when runs decline for want of a device
/// (IDIOM_DEVICE=seq, no OpenCL loader, no matching device). The string lives
/// as long as the process.
const char *idiom_device_name(void);

/// Writes the statistics of the process so far as one JSON document (the
/// IDIOM_STATS=json report, schema in README.md, "Statistics as JSON") to
/// the file \p path ("%p" in it becomes the process id; written to a
/// temporary file and renamed), or to stderr when \p path is NULL or empty.
/// Returns 0, or -1 after a message on stderr when the file cannot be
/// written.
int idiom_stats_write_json(const char *path);

/// Bits of idiom_csr_extent's flags: how the loop widens the row pointers
/// and the column indices (zero- instead of sign-extension).
enum idiom_csr_flags {
  IDIOM_CSR_PTR_ZEXT = 1u,  ///< ptr elements are unsigned
  IDIOM_CSR_COL_ZEXT = 2u,  ///< col elements are unsigned
  IDIOM_CSR_CNT_ZEXT = 4u,  ///< JDS: cnt elements are unsigned
  IDIOM_CSR_PERM_ZEXT = 8u  ///< JDS: perm elements are unsigned
};

/// The sparse formats idiom_run_csr runs (idiom_csr::format).
enum idiom_sparse_format {
  IDIOM_SPARSE_CSR = 0, ///< compressed sparse row (the fields up to nx_arg)
  IDIOM_SPARSE_JDS = 1  ///< jagged diagonal storage with a row permutation
};

/// The run-time conditions and extents of an offloaded CSR sparse
/// matrix-vector product `for i < n: y[i] = F(sum over p in [ptr[i],
/// ptr[i+1]) of val[p] * x[col[p]])` (docs/ARCHITECTURE.md, "SpMV"). Reads
/// ptr[0..n] and, only when the row pointers are monotone, col[ptr[0] ..
/// ptr[n]), on the calling thread; ptr_bytes and col_bytes are the element
/// sizes (4 or 8), widened to 64 bits as flags say (enum idiom_csr_flags).
///
/// \returns 1 when n >= 1 and ptr[i] <= ptr[i+1] for every i < n, with
///          out[0] = ptr[0], out[1] = ptr[n] (the nonzeros of the rows, in
///          elements of val and col), out[2] = the smallest and out[3] = the
///          largest column index plus one (both 0 without nonzeros); else 0
///          (the caller runs the original loop) and out is not written.
///          O(n + nonzeros) time, no allocation, never fails otherwise.
int idiom_csr_extent(const void *ptr, uint32_t ptr_bytes, const void *col,
                     uint32_t col_bytes, uint32_t flags, int64_t n,
                     int64_t out[4]);

/// Row blocks of the load-balanced CSR SpMV variant (CSR-Adaptive: J. L.
/// Greathouse and M. Daga, "Efficient sparse matrix-vector multiplication
/// on GPUs using the CSR storage format", SC 2014, section 4: consecutive
/// rows grouped into blocks of about equal work, computed once per matrix).
/// Cuts rows [0, n) into consecutive blocks, block b being rows out[b] ..
/// out[b+1] - 1 (out[0] = 0, out[nb] = n, strictly increasing). Block b
/// runs on one work-group of \p group work-items (a power of two), W =
/// group / rows rounded down to a power of two of them per row, each
/// reading its row with stride W; a row joins the current block while the
/// block keeps at most \p group rows and its longest row needs at most
/// \p iters strided steps per lane (length <= iters * W), so a row longer
/// than iters * group is a block alone. Reads ptr[0..n] (widened as flags
/// say); decreasing pointers count as empty rows (the caller checks
/// monotony with idiom_csr_extent first).
///
/// \returns nb, the number of blocks (0 when n = 0, with out[0] = 0), with
///          out[0..nb] written (out must hold n + 1 elements), or -1 for
///          invalid arguments (n < 0, a null pointer, an element size other
///          than 4 or 8, group not a power of two, iters 0). O(n) time, no
///          allocation.
int64_t idiom_csr_row_blocks(const void *ptr, uint32_t ptr_bytes,
                             uint32_t flags, int64_t n, uint32_t group,
                             uint32_t iters, int64_t *out);

/// What idiom_run_csr needs to complete the arguments of a CSR SpMV whose
/// val, col and x ranges depend on the data. Element p of val and col is at
/// val + p * val_bytes and col + p * col_bytes, element c of x at
/// x + c * x_bytes; row i's nonzeros are ptr[i] .. ptr[i+1] - 1 and x is
/// read at col[p] + x_offset.
typedef struct idiom_csr {
  const void *ptr;   ///< the row pointers: &ptr[0]
  const void *val;   ///< val's base
  const void *col;   ///< col's base
  const void *x;     ///< x's base
  int64_t rows;      ///< n, the rows (= sizes[0])
  int64_t x_offset;  ///< constant added to a column index to read x
  uint64_t x_extent; ///< elements of x from its base, 0 when unknown
  uint32_t ptr_bytes, col_bytes, val_bytes, x_bytes; ///< element sizes
  uint32_t flags;    ///< enum idiom_csr_flags
  uint32_t val_arg, col_arg, x_arg; ///< args[] indices of those buffers
  uint32_t nz0_arg, c0_arg, nx_arg; ///< args[] indices of the IDIOM_ARG_I64
                                    ///< values ptr[0], the smallest column
                                    ///< and the columns' span
  /// enum idiom_sparse_format; the fields below are read for JDS only. Row
  /// i < rows has cnt[i] nonzeros (cnt_bytes 4 or 8, widened as flags say),
  /// the k-th at position ptr[k] + i of val and col (ptr holds the jagged
  /// diagonals' starts), and its result goes to element perm[i] + y_offset
  /// of y. nz0_arg gets the first position, nnz_arg the positions' span,
  /// y0_arg the first element of y written; ptr_arg and y_arg are the
  /// args[] indices of the ptr and y buffers.
  uint32_t format;
  uint32_t cnt_bytes, perm_bytes, y_bytes; ///< element sizes
  const void *cnt;  ///< &cnt[row 0]
  const void *perm; ///< &perm[row 0]
  const void *y;    ///< y's base
  int64_t y_offset; ///< constant added to perm[i] to index y
  uint32_t ptr_arg, y_arg, nnz_arg, y0_arg;
  /// Rows per count: row i's count is cnt[i / cnt_div] (1, or 0 read as 1;
  /// Parboil's GPU form has one count per block of 32 rows).
  uint32_t cnt_div;
} idiom_csr;

/// idiom_run for an offloaded CSR SpMV (docs/ARCHITECTURE.md, "CSR SpMV"):
/// args holds the val, col and x buffers and the nz0, c0 and nx values at
/// the indices csr names, with any pointers and lengths (they are
/// replaced). Only once the runtime has decided to run the kernel (the
/// same declines as idiom_run first, the cost model with an estimate of the
/// bytes from ptr[0] and ptr[n]) does it call idiom_csr_extent and fill
/// them in: val and col as [ptr[0], ptr[n]), x as the columns' range, nz0,
/// c0 and nx. It declines, and the caller runs the original loop, when the
/// row pointers decrease somewhere ("CSR row pointers not monotone"), when
/// x_extent is not 0 and a column plus x_offset lies outside [0, x_extent)
/// ("CSR column index outside x"), or for any reason idiom_run declines.
/// A loop that keeps running on the host never pays for the check. At
/// most 64 arguments. The variants are chosen per size class of the
/// nonzeros (ptr[n] - ptr[0]) when they outnumber the rows.
///
/// JDS (csr->format IDIOM_SPARSE_JDS, docs/ARCHITECTURE.md "JDS SpMV"): the
/// check reads cnt[0..n), ptr[0..K) with K the largest count, and col at
/// every position the loop reads; it fills in ptr as [0, K), val and col
/// as the positions' range, x as the columns' range, y as [y0, y0 + n) and
/// nz0, nnz, c0, nx and y0. It declines when a count is negative ("JDS row
/// count negative"), when a position overflows ("JDS position overflows"),
/// when a column lies outside x as for CSR, or when the y elements of the
/// rows are not n distinct consecutive elements ("JDS row permutation not
/// one-to-one": two rows would write one element; "JDS rows do not write
/// consecutive elements of y").
int idiom_run_csr(const idiom_kernel_desc *desc, const idiom_arg *args,
                  uint32_t nargs, const uint64_t *sizes, void *results,
                  const idiom_csr *csr);

#ifdef __cplusplus
}
#endif

#endif /* IDIOMRT_H */
