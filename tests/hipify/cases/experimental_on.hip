#include <hip/hip_runtime.h>
unsigned long long flags(hipGraphExec_t g) {
  unsigned long long f = 0;
  hipGraphExecGetFlags(g, &f);
  return f;
}
