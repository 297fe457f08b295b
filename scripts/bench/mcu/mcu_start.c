/* mcu_start.c - start-up for the benches of scripts/bench/mcu (their shared calls:
 * mcu_count.h) on QEMU's Cortex-M boards (microbit, mps2-an385/an386/an505), without a C
 * library's I/O: vector table, zeroed .bss (.data is loaded in place by QEMU, see
 * tests/arm/mps2_sections.ld), SysTick counting its wraps, text out and exit through Arm
 * semihosting (BKPT 0xAB). A fault prints a line and ends the emulator with a failure report. */
#include <stddef.h>
#include <string.h>

int main(void);
void mcu_reset(void);
void mcu_write(const char *s);
void mcu_exit(int ok);
extern volatile unsigned long mcu_systick_wraps;
volatile unsigned long mcu_systick_wraps;
extern char __bss_start__[], __bss_end__[], __stack_top[];
static void mcu_fault(void);
static void mcu_systick(void);

static void mcu_semi(unsigned op, const void *arg)
{
    register unsigned r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
}

void mcu_write(const char *s) { mcu_semi(0x04u, s); } /* SYS_WRITE0 */

void mcu_exit(int ok) /* SYS_EXIT: ApplicationExit or RunTimeErrorUnknown */
{
    mcu_semi(0x18u, (const void *)(ok ? 0x20026u : 0x20023u));
    for (;;) {
    }
}

static void mcu_fault(void)
{
    mcu_write("FAULT: the CPU took an exception\n");
    mcu_exit(0);
}

static void mcu_systick(void) { mcu_systick_wraps++; }

/* initial stack pointer, then the handlers from Reset (1) to SysTick (15) */
struct mcu_vector_table {
    char *sp;
    void (*handler[15])(void);
};
__attribute__((section(".vectors"), used)) static const struct mcu_vector_table mcu_vectors = {
    __stack_top,
    {mcu_reset, mcu_fault, mcu_fault, mcu_fault, mcu_fault, mcu_fault, 0, 0, 0, 0, mcu_fault,
     mcu_fault, 0, mcu_fault, mcu_systick}};

void mcu_reset(void)
{
    memset(__bss_start__, 0, (size_t)(__bss_end__ - __bss_start__));
    mcu_exit(main() == 0);
}
