/* bridge_link.h - a simulated serial link for the bridge tests: the host side's transport on
 * one end, an accel_bridge_device on the other, in one process on a virtual clock, with faults.
 *
 * Each write is a packet with a delivery time. Faults are drawn per packet (rates in 1/1000):
 * drop the packet, duplicate it (the copy comes later), flip a bit, drop or duplicate a byte,
 * insert garbage bytes (0x00 among them), delay it past the host's answer timeout, or delay it
 * a little so packets overtake each other. The device handles what is due when the host
 * reads; its answer leaves after the simulated time its request took (delay, wait_irq).
 * Host-only test code (uses tl_rand from testlib.h). */
#ifndef ACCEL_TEST_BRIDGE_LINK_H
#define ACCEL_TEST_BRIDGE_LINK_H
#include "accel_bridge_device.h"
#include "accel_bridge_host.h"
#include "testlib.h"

#define LK_MAXP 96
#define LK_PKT 1200

typedef struct lk_packet {
    uint32_t t, order;
    size_t len, off;
    uint8_t data[LK_PKT];
} lk_packet;

typedef struct lk_faults { /* per 1000 packets */
    unsigned drop, dup, flip, byte_drop, byte_dup, garbage, delay, reorder;
} lk_faults;

typedef struct lk_dir {
    lk_packet p[LK_MAXP];
    unsigned n;
    lk_faults f;
    /* what happened */
    uint32_t packets, dropped, duplicated, flipped, bytes_dropped, bytes_duplicated, garbage,
        delayed, reordered, overflow;
} lk_dir;

typedef struct link_sim {
    uint32_t now; /* the host's clock */
    uint32_t order;
    uint32_t latency, long_delay;
    lk_dir h2d, d2h;
    accel_bridge_device *dev;
    const uint32_t *dev_clock; /* the device's clock (ms): time its requests take there */
    uint8_t stage[4096];
    size_t stage_len;
    int device_off; /* 1: the device hears nothing (a dead link) */
} link_sim;

static unsigned lk_chance(unsigned per_mille) { return per_mille && tl_rand_below(1000) < per_mille; }

static void lk_push(link_sim *l, lk_dir *d, const uint8_t *data, size_t len, uint32_t t)
{
    lk_packet *p;
    if (d->n >= LK_MAXP || len > LK_PKT) {
        d->overflow++; /* counts as a dropped packet */
        return;
    }
    p = &d->p[d->n++];
    p->t = t;
    p->order = l->order++;
    p->len = len;
    p->off = 0;
    memcpy(p->data, data, len);
}

static void lk_submit(link_sim *l, lk_dir *d, const uint8_t *data, size_t len, uint32_t base)
{
    uint8_t b[LK_PKT];
    uint32_t t = base + l->latency;
    d->packets++;
    if (len > LK_PKT - 16) len = LK_PKT - 16;
    if (lk_chance(d->f.drop)) {
        d->dropped++;
        return;
    }
    memcpy(b, data, len);
    if (len && lk_chance(d->f.flip)) {
        b[tl_rand_below((uint32_t)len)] ^= (uint8_t)(1u << tl_rand_below(8));
        d->flipped++;
    }
    if (len > 1 && lk_chance(d->f.byte_drop)) {
        size_t at = tl_rand_below((uint32_t)len);
        memmove(b + at, b + at + 1, len - at - 1);
        len--;
        d->bytes_dropped++;
    }
    if (len && lk_chance(d->f.byte_dup)) {
        size_t at = tl_rand_below((uint32_t)len);
        memmove(b + at + 1, b + at, len - at);
        len++;
        d->bytes_duplicated++;
    }
    if (lk_chance(d->f.garbage)) {
        size_t at = tl_rand_below((uint32_t)len + 1), k, n = 1 + tl_rand_below(8);
        memmove(b + at + n, b + at, len - at);
        for (k = 0; k < n; k++) b[at + k] = tl_rand_below(4) == 0 ? 0 : (uint8_t)tl_rand();
        len += n;
        d->garbage++;
    }
    if (lk_chance(d->f.delay)) {
        t += l->long_delay + tl_rand_below(l->long_delay + 1);
        d->delayed++;
    } else if (lk_chance(d->f.reorder)) {
        t += tl_rand_below(3 * l->latency + 2);
        d->reordered++;
    }
    lk_push(l, d, b, len, t);
    if (lk_chance(d->f.dup)) {
        lk_push(l, d, b, len, t + 1 + tl_rand_below(2 * l->long_delay + 1));
        d->duplicated++;
    }
}

/* index of the packet due first (earliest time, then submission order), or -1 */
static int lk_first(const lk_dir *d)
{
    unsigned i;
    int best = -1;
    for (i = 0; i < d->n; i++)
        if (best < 0 || d->p[i].t < d->p[best].t ||
            (d->p[i].t == d->p[best].t && d->p[i].order < d->p[best].order))
            best = (int)i;
    return best;
}

static void lk_remove(lk_dir *d, int i)
{
    d->p[i] = d->p[d->n - 1];
    d->n--;
}

static accel_status lk_dev_write(void *user, const uint8_t *data, size_t n)
{
    link_sim *l = (link_sim *)user;
    if (n > sizeof l->stage - l->stage_len) return ACCEL_E_FULL;
    memcpy(l->stage + l->stage_len, data, n);
    l->stage_len += n;
    return ACCEL_OK;
}

/* Give the device every packet due by now. */
static void lk_deliver(link_sim *l)
{
    int i;
    while ((i = lk_first(&l->h2d)) >= 0 && l->h2d.p[i].t <= l->now) {
        lk_packet pk = l->h2d.p[i];
        uint32_t t0 = l->dev_clock ? *l->dev_clock : 0;
        lk_remove(&l->h2d, i);
        if (l->device_off) continue;
        l->stage_len = 0;
        accel_bridge_device_feed(l->dev, pk.data, pk.len);
        if (l->stage_len) {
            uint32_t spent = l->dev_clock ? *l->dev_clock - t0 : 0;
            lk_submit(l, &l->d2h, l->stage, l->stage_len, l->now + spent);
        }
    }
}

static accel_status lk_write(void *user, const uint8_t *data, size_t n)
{
    link_sim *l = (link_sim *)user;
    lk_submit(l, &l->h2d, data, n, l->now);
    return ACCEL_OK;
}

static accel_status lk_read(void *user, uint8_t *buf, size_t cap, size_t *got, uint32_t timeout_ms)
{
    link_sim *l = (link_sim *)user;
    uint32_t deadline = l->now + timeout_ms;
    *got = 0;
    for (;;) {
        int i, j;
        uint32_t next = 0;
        int have_next = 0;
        lk_deliver(l);
        i = lk_first(&l->d2h);
        if (i >= 0 && l->d2h.p[i].t <= l->now) {
            lk_packet *p = &l->d2h.p[i];
            size_t n = p->len - p->off;
            if (n > cap) n = cap;
            memcpy(buf, p->data + p->off, n);
            p->off += n;
            if (p->off >= p->len) lk_remove(&l->d2h, i);
            *got = n;
            return ACCEL_OK;
        }
        if (i >= 0) {
            next = l->d2h.p[i].t;
            have_next = 1;
        }
        j = lk_first(&l->h2d);
        if (j >= 0 && (!have_next || l->h2d.p[j].t < next)) {
            next = l->h2d.p[j].t;
            have_next = 1;
        }
        if (have_next && (int32_t)(next - deadline) <= 0) {
            if ((int32_t)(next - l->now) > 0) l->now = next;
            continue;
        }
        l->now = deadline;
        return ACCEL_E_TIMEOUT;
    }
}

static uint32_t lk_now(void *user) { return ((link_sim *)user)->now; }

static void lk_init(link_sim *l, accel_bridge_device *dev, const uint32_t *dev_clock)
{
    memset(l, 0, sizeof *l);
    l->dev = dev;
    l->dev_clock = dev_clock;
    l->now = 1000;
    l->latency = 2;
    l->long_delay = 60;
}

static void lk_transport(link_sim *l, accel_bridge_transport *t)
{
    t->write = lk_write;
    t->read = lk_read;
    t->now_ms = lk_now;
    t->user = l;
}

static void lk_set_faults(link_sim *l, const lk_faults *f)
{
    l->h2d.f = *f;
    l->d2h.f = *f;
}

static void lk_print(const link_sim *l, const char *what)
{
    const lk_dir *d[2];
    unsigned k;
    d[0] = &l->h2d;
    d[1] = &l->d2h;
    for (k = 0; k < 2; k++)
        printf("  %s link %s: %lu packets, %lu dropped, %lu duplicated, %lu bit-flipped, "
               "%lu byte-dropped, %lu byte-duplicated, %lu with garbage, %lu delayed, %lu "
               "reordered\n",
               what, k ? "device->host" : "host->device", (unsigned long)d[k]->packets,
               (unsigned long)(d[k]->dropped + d[k]->overflow), (unsigned long)d[k]->duplicated,
               (unsigned long)d[k]->flipped, (unsigned long)d[k]->bytes_dropped,
               (unsigned long)d[k]->bytes_duplicated, (unsigned long)d[k]->garbage,
               (unsigned long)d[k]->delayed, (unsigned long)d[k]->reordered);
}

static void lk_print_stats(const accel_bridge_host *h, const accel_bridge_device *d,
                           const char *what)
{
    printf("  %s host: %lu requests, %lu sends, %lu retries, %lu crc errors, %lu frame errors, "
           "%lu decode errors, %lu stale answers, %lu link timeouts, %lu restarts, %lu cs "
           "releases\n",
           what, (unsigned long)h->stats.requests, (unsigned long)h->stats.sends,
           (unsigned long)h->stats.retries, (unsigned long)h->stats.crc_errors,
           (unsigned long)h->stats.frame_errors, (unsigned long)h->stats.decode_errors,
           (unsigned long)h->stats.stale, (unsigned long)h->stats.link_timeouts,
           (unsigned long)h->stats.restarts, (unsigned long)h->stats.cs_releases);
    printf("  %s device: %lu frames, %lu crc errors, %lu frame errors, %lu decode errors, "
           "%lu executed, %lu answered from cache, %lu stale ignored, %lu without session\n",
           what, (unsigned long)d->stats.frames, (unsigned long)d->stats.crc_errors,
           (unsigned long)d->stats.frame_errors, (unsigned long)d->stats.decode_errors,
           (unsigned long)d->stats.executed, (unsigned long)d->stats.repeats,
           (unsigned long)d->stats.stale, (unsigned long)d->stats.no_session);
}

#endif
