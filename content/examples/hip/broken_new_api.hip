// Broken on purpose (on ROCm 5.2): an API that HIP added later.
#include <hip/hip_runtime.h>

int main() {
    hipGraph_t graph;
    hipGraphCreate(&graph, 0);
    hipStream_t stream;
    hipStreamCreate(&stream);
    hipStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, hipStreamCaptureModeGlobal);
    return 0;
}
