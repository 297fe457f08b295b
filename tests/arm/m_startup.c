/* m_startup.c - the smallest start-up for running a test under qemu-system-arm on an M-profile
 * board with newlib's rdimon semihosting (linked with --specs=rdimon.specs -nostartfiles):
 * vector table, zeroed .bss (.data is loaded in place by QEMU, see mps2.ld), semihosting
 * handles, exit(main()). Any fault prints a line through semihosting and ends the emulator
 * with a failure report, so a crash never hangs the test. With -DMAC_ARM_GCOV (scripts/coverage.sh)
 * the coverage counters are written out after main (tests/arm/gcov_dump.c). */
#include <stdlib.h>
#include <string.h>

int main(void);
extern void initialise_monitor_handles(void);
extern char __bss_start__[], __bss_end__[], __stack_top[];

void mac_arm_reset(void);
static void mac_arm_fault(void);

/* Angel semihosting call (BKPT 0xAB on M-profile). */
static void mac_arm_semi(unsigned op, const void *arg)
{
    register unsigned r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
}

static void mac_arm_fault(void)
{
    mac_arm_semi(0x04u, "FAULT: the CPU took an exception\n"); /* SYS_WRITE0 */
    mac_arm_semi(0x18u, (const void *)0x20023u); /* SYS_EXIT, ADP_Stopped_RunTimeErrorUnknown */
    for (;;) {
    }
}

/* initial stack pointer, then the handlers from Reset (1) to SysTick (15) */
struct mac_arm_vector_table {
    char *sp;
    void (*handler[15])(void);
};
__attribute__((section(".vectors"), used)) static const struct mac_arm_vector_table mac_arm_vectors = {
    __stack_top,
    {mac_arm_reset, mac_arm_fault, mac_arm_fault, mac_arm_fault, mac_arm_fault, mac_arm_fault, 0,
     0, 0, 0, mac_arm_fault, mac_arm_fault, 0, mac_arm_fault, mac_arm_fault}};

/* crti.o's hooks, left out with -nostartfiles; newlib's exit path calls _fini. */
void _init(void);
void _fini(void);
void _init(void) {}
void _fini(void) {}

void mac_arm_reset(void)
{
    memset(__bss_start__, 0, (size_t)(__bss_end__ - __bss_start__));
    initialise_monitor_handles();
#ifdef MAC_ARM_GCOV
    {
        extern void mac_arm_gcov_dump(void);
        int r = main();
        mac_arm_gcov_dump();
        exit(r);
    }
#else
    exit(main());
#endif
}
