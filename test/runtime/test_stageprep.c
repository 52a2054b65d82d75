/*===- test_stageprep.c - Staging slots made by the runtime thread ---------===*
 *
 * Cases of idiomrt_test for idiomrt_stage_prepare (runtime/lib/staging.c,
 * called by startup.c's runtime thread once its first builds are done):
 * staging_prepare_on: with IDIOM_STAGING=on (every device, PoCL's too) a
 * start-up of the device leaves the pinned slots made before any copy;
 * staging_prepare_auto_cpu: with the default (auto: GPUs only) a start-up
 * on PoCL's CPU device makes none.
 *
 *===----------------------------------------------------------------------===*/
#include "rt_internal.h"
#include "test_common.h"

#include <stdlib.h>
#include <time.h>

/* Starts the device in the background and waits (at most 60 s) for the
   runtime thread to end; 1 when the device came up. */
static int start_and_wait(void) {
  setenv("IDIOM_COST", "on", 1);
  setenv("IDIOM_CACHE_DIR", "off", 1);
  CHECK(!idiomrt_stage_ready());
  idiomrt_startup_kick();
  CHECK(idiomrt_startup_begun());
  struct timespec ms20 = {0, 20000000};
  for (int t = 0; t < 3000 && idiomrt_startup_running(); ++t)
    nanosleep(&ms20, NULL);
  CHECK(!idiomrt_startup_running());
  const idiomrt_device *dev = idiomrt_device_peek();
  CHECK_MSG(dev, "the device did not start");
  return dev != NULL;
}

void case_staging_prepare_on(void) {
  setenv("IDIOM_STAGING", "on", 1);
  if (start_and_wait())
    CHECK(idiomrt_stage_ready());
}

void case_staging_prepare_auto_cpu(void) {
  unsetenv("IDIOM_STAGING");
  if (start_and_wait()) {
    CHECK(idiomrt_device_peek()->type & CL_DEVICE_TYPE_CPU);
    CHECK(!idiomrt_stage_ready());
  }
}
