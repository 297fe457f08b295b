/* mcu_count.h - what the Cortex-M benches (bench_mac_mcu.c, bench_tflite_mcu.c) share: the
 * start-up's calls (mcu_start.c), an instruction count from SysTick and text out. Under
 * qemu-system-arm -icount the virtual clock advances a fixed time per executed instruction, so
 * SysTick (clocked from it) counts instructions: calibrate() measures the ticks per instruction
 * on a loop of known length (tpi_milli) and what reading the clock twice costs (t_empty);
 * instr() turns two readings into instructions.
 * INSTRUCTIONS, not cycles. Include it once, in the bench's one C file. */
#ifndef MCU_COUNT_H
#define MCU_COUNT_H
#include <stdint.h>

void mcu_write(const char *s);
void mcu_exit(int ok);
extern volatile unsigned long mcu_systick_wraps;

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)

/* SysTick ticks since calibrate() started it: its 24-bit down-counter and the wraps counted */
static uint64_t now(void)
{
    unsigned long w;
    uint32_t v;
    do {
        w = mcu_systick_wraps;
        v = SYST_CVR;
    } while (w != mcu_systick_wraps);
    return ((uint64_t)w << 24) + (0xFFFFFFu - v);
}

static uint64_t t_empty;
static uint32_t tpi_milli; /* timer ticks per instruction x 1000 */

static void calibrate(void)
{
    uint32_t n = 200000u;
    uint64_t t0, t1;
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 7u; /* processor clock, interrupt on wrap, enable */
    t0 = now();
    t1 = now();
    t_empty = t1 - t0;
    t0 = now();
    __asm__ volatile(".syntax unified\n1: subs %0, %0, #1\n bne 1b" : "+l"(n) : : "cc");
    t1 = now();
    tpi_milli = (uint32_t)((t1 - t0 - t_empty) * 1000u / 400000u); /* 2 instructions a turn */
}

/* instructions executed between the readings t0 and t1 */
static uint32_t instr(uint64_t t0, uint64_t t1)
{
    uint64_t d = t1 - t0;
    d = d > t_empty ? d - t_empty : 0;
    return (uint32_t)(d * 1000u / tpi_milli);
}

static void put(const char *s) { mcu_write(s); }
static void put_u(uint32_t v)
{
    char b[12];
    int i = 11;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v && i > 0);
    put(b + i);
}
#endif
