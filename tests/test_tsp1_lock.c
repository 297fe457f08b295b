/* test_tsp1_lock.c - one host session per TSP1: the Linux port takes an exclusive lock on the
 * spidev / i2c-dev node it opens, so a second session (another process, or another accel_linux
 * here: flock conflicts between open files) is refused with ACCEL_E_BUSY and last_errno
 * EWOULDBLOCK, the node closed again; closing (or dying) releases it. Regular files stand in for
 * the nodes (opening with speed 0 makes no spidev ioctl). */
#define _GNU_SOURCE
#define ACCEL_NO_EDGETPU
#define ACCEL_NO_REFSI
#define ACCEL_NO_ANE
#define ACCEL_NO_MAC
#define ACCEL_NO_TFLITE
#define ACCEL_IMPLEMENTATION
#include "accel.h"
#include "testlib.h"
#include "accel_linux.h"
#include "accel_linux_spi.h"
#include "accel_linux_i2c.h"

#ifdef __linux__
#include <errno.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

typedef accel_status (*open_fn)(accel_linux *lx, const char *path);
static accel_status spi_open(accel_linux *lx, const char *path)
{
    return accel_linux_spi_open_path(lx, path, 0, 0, 0, 8);
}
static accel_status i2c_open(accel_linux *lx, const char *path)
{
    return accel_linux_i2c_open_path(lx, path);
}

static void lock_case(open_fn op, int *slot_a, int *slot_b, accel_linux *a, accel_linux *b)
{
    char node[] = "/tmp/accel_tsp1_lock_XXXXXX";
    int fd = mkstemp(node);
    pid_t pid;
    int wst = 0;
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    accel_linux_init(a);
    accel_linux_init(b);
    CHECK_ST(op(a, node), ACCEL_OK);
    CHECK(*slot_a >= 0);
    /* a second session on the same node: refused, nothing left open */
    CHECK_ST(op(b, node), ACCEL_E_BUSY);
    CHECK_EQ(b->last_errno, EWOULDBLOCK);
    CHECK_EQ(*slot_b, -1);
    /* another process: refused too (the child exits 0 when refused with EWOULDBLOCK) */
    pid = fork();
    if (pid == 0) {
        accel_linux c;
        accel_linux_init(&c);
        _exit(op(&c, node) == ACCEL_E_BUSY && c.last_errno == EWOULDBLOCK ? 0 : 1);
    }
    CHECK(pid > 0);
    if (pid > 0) {
        CHECK_EQ(waitpid(pid, &wst, 0), pid);
        CHECK(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
    }
    /* released at close: the second session opens now */
    accel_linux_close(a);
    CHECK_ST(op(b, node), ACCEL_OK);
    CHECK(*slot_b >= 0);
    accel_linux_close(b);
    /* a lock held by another program's open file (not the port's) refuses as well */
    fd = open(node, O_RDWR);
    CHECK(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0);
    CHECK_ST(op(a, node), ACCEL_E_BUSY);
    close(fd);
    CHECK_ST(op(a, node), ACCEL_OK);
    accel_linux_close(a);
    unlink(node);
}

static void test_spidev_lock(void)
{
    static accel_linux a, b;
    lock_case(spi_open, &a.spi_fd, &b.spi_fd, &a, &b);
}

static void test_i2cdev_lock(void)
{
    static accel_linux a, b;
    lock_case(i2c_open, &a.i2c_fd, &b.i2c_fd, &a, &b);
}

int main(void)
{
    RUN(test_spidev_lock);
    RUN(test_i2cdev_lock);
    return TEST_END();
}
#else
int main(void)
{
    tl_case = "linux";
    SKIP_CASE("not Linux");
    return TEST_END();
}
#endif
