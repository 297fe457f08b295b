/* fake_k_sem.h - the counting half of k_sem for the host programs that stand in for Zephyr's
 * kernel (sim_zephyr.c, test_zephyr_port.c, test_zephyr_bridge.c): init, give and reset as
 * the kernel defines them (a count capped at the limit). Each program includes this once and
 * writes its own k_sem_take, which decides what waiting means there. Needs <errno.h> and the
 * declaration headers' struct k_sem first. */
#ifndef FAKE_K_SEM_H
#define FAKE_K_SEM_H
int k_sem_init(struct k_sem *sem, unsigned int initial_count, unsigned int limit)
{
    if (!limit || initial_count > limit) return -EINVAL;
    sem->count = initial_count;
    sem->limit = limit;
    return 0;
}

void k_sem_give(struct k_sem *sem)
{
    if (sem->count < sem->limit) sem->count++;
}

void k_sem_reset(struct k_sem *sem) { sem->count = 0; }
#endif
