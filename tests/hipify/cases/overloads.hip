#include <hip/hip_runtime.h>
void timing(hipGraph_t g) {
  hipEvent_t a, b;
  hipEventCreate(&a);
  hipEventCreateWithFlags(&b, hipEventBlockingSync | hipEventDisableTiming);
  hipGraphExec_t exec;
  hipGraphInstantiateWithFlags(&exec, g, 0);
  hipGraphInstantiate(&exec, g, nullptr, nullptr, 0);
}
