#!/usr/bin/env bash
# stack_usage.sh - the stack every public function needs, per target, against the bound the
# header states (head comment, "Stack"). accel.h's implementation is compiled once per target
# with every section and device model in, -fstack-usage and -fcallgraph-info=su (GCC 10 and
# later); tests/stack_usage.py adds the frames along the deepest chain of direct calls (calls
# through the port's or the caller's function pointers count 0) and prints the largest need
# per section. A function above the bound, a frame of unbounded size or a recursion fails.
# Targets: one bound for all of them, 32-bit microcontrollers (also with ACCEL_FB_COPY, the
# models-in-flash paths), 64-bit builds (Zephyr's
# native_sim/native/64, AArch64, RISC-V 64) and the hosted x86 AVX2 / AVX-512 kernels (conv2d
# takes its packed filters and patches from caller scratch, or reads in place without it).
# A missing cross compiler skips its target by name. Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
B=build/stack_usage
rm -rf "$B" && mkdir -p "$B"
PY=/usr/bin/python3
BOUND=1536 # bytes: the bound the header states, every section on every target
printf '#define ACCEL_IMPLEMENTATION\n#include "accel.h"\n' >"$B/impl.c"
# the same with models read through ACCEL_FB_COPY (models in flash): its own code paths
cat >"$B/impl_far.c" <<'EOF'
#include <stddef.h>
static void far_copy(void *d, const void *s, size_t n)
{
    unsigned char *o = (unsigned char *)d;
    const unsigned char *i = (const unsigned char *)s;
    while (n--) *o++ = *i++;
}
#define ACCEL_FB_COPY(d, s, n) far_copy((d), (s), (n))
#define ACCEL_IMPLEMENTATION
#include "accel.h"
EOF

# measure TAG BOUND CC FLAGS...: compile, report, compare
measure() {
    local tag=$1 bound=$2 cc=$3 l="$B/$1.log"
    shift 3
    if ! have "$cc"; then skip "stack: $tag" "$cc"; return; fi
    if ! (cd "$B" && nice "$cc" "$@" -I../.. -fstack-usage -fcallgraph-info=su -c "${IMPL:-impl.c}" \
        -o "$tag.o") >"$l" 2>&1; then
        bad "stack: $tag: build" "$(head -20 "$l")"
        return
    fi
    echo "stack, $tag (bound $bound):"
    if $PY tests/stack_usage.py "$B/$tag.ci" "$B/$tag.su" "$bound" >"$l" 2>&1; then
        cat "$l"
        ok "stack: $tag"
    else
        cat "$l"
        bad "stack: $tag" "above the bound, unbounded or recursive (above)"
    fi
}

measure x86-64 $BOUND gcc -O2 -DACCEL_MAC_NO_SIMD
measure x86-64-Os $BOUND gcc -Os -DACCEL_MAC_NO_SIMD
measure x86-64-mac-fast0 $BOUND gcc -O2 -DACCEL_MAC_FAST=0
measure cortex-m4 $BOUND arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2
measure cortex-m0plus $BOUND arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -Os
measure rv32imac $BOUND riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -O2 -ffreestanding
measure aarch64 $BOUND aarch64-linux-gnu-gcc -O2
measure aarch64-dotprod $BOUND aarch64-linux-gnu-gcc -O2 -march=armv8.2-a+dotprod
measure x86-64-avx2 $BOUND gcc -O2 -mavx2 -mfma
measure x86-64-avx512vnni $BOUND gcc -O2 -march=icelake-server
IMPL=impl_far.c measure cortex-m4-far $BOUND arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2
IMPL=impl_far.c measure cortex-m0plus-far $BOUND arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -Os
IMPL=impl_far.c measure rv32imac-far $BOUND riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -O2 -ffreestanding

# the header states the same bound, for every target and every section (no exception)
grep -q "needs more\$" accel.h && grep -q "^ \*   than $BOUND bytes, callbacks not counted, on every target" accel.h &&
    ! grep -q "AVX2/AVX-512 kernels: [0-9]* KiB" accel.h && ! grep -q "with one exception" accel.h &&
    ok "stack: the header states $BOUND bytes for every target and section" ||
    bad "stack: the header's head comment does not state the bound $BOUND for every target and section"

# the check can fail: a function with a large frame is reported above the bound
cat >"$B/big.c" <<'EOF'
void use(unsigned char *p);
static void accel__inner(unsigned char *p) { unsigned char big[4096]; use(big); p[0] = big[p[1]]; }
void accel_mac_big(unsigned char *p) { accel__inner(p); }
void accel_mac_small(unsigned char *p) { p[0] = 0; }
EOF
if (cd "$B" && gcc -O2 -fno-inline -fstack-usage -fcallgraph-info=su -c big.c -o big.o) >/dev/null 2>&1; then
    check "stack_usage.py reports a deep chain above the bound" 1 \
        "over the bound of $BOUND: accel_mac_big needs" $PY tests/stack_usage.py "$B/big.ci" "$B/big.su" $BOUND
else
    bad "stack: build of the self-check"
fi
lib_end
