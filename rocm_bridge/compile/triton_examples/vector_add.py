# Vector add: the "hello world" of Triton. One program instance adds BLOCK elements; masked loads guard the tail.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


# What the lab compiles: argument types (a * is a pointer), compile-time constants, warps per program.
SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"}
CONSTEXPRS = {"BLOCK": 1024}
NUM_WARPS = 4
