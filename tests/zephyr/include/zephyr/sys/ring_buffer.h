/* Stand-in for <zephyr/sys/ring_buffer.h> (Zephyr 4.3.0, CONFIG_RING_BUFFER): the byte-mode
 * API the bridge sample uses. Zephyr's struct ring_buf has other members (head/tail indices per
 * claim); only the fakes read these. The library itself takes no lock: one producer and one
 * consumer (an ISR and a thread) need none. See tests/zephyr/include/zephyr/README.txt. */
#ifndef ZEPHYR_STANDIN_SYS_RING_BUFFER_H
#define ZEPHYR_STANDIN_SYS_RING_BUFFER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ring_buf {
    uint8_t *buffer;
    uint32_t size;
    uint32_t head, tail; /* bytes taken and put so far (modulo 2^32) */
};

/* Define a ring buffer `name` of size8 bytes with its storage (file scope; Zephyr's version
 * also checks the size against its maximum at build time). */
#define RING_BUF_DECLARE(name, size8)                                              \
    static uint8_t zrb_data_##name[size8];                                         \
    struct ring_buf name = {.buffer = zrb_data_##name, .size = (size8), .head = 0, .tail = 0}

/* Copy up to size bytes in; returns the number put (fewer when full). */
uint32_t ring_buf_put(struct ring_buf *buf, const uint8_t *data, uint32_t size);
/* Copy up to size bytes out (data NULL: discard them); returns the number taken. */
uint32_t ring_buf_get(struct ring_buf *buf, uint8_t *data, uint32_t size);

#ifdef __cplusplus
}
#endif
#endif
