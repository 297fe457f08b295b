/* accel_linux_usb.c - USB through libusb-1.0. Usage: see accel_linux_usb.h. */
#define _GNU_SOURCE
#include "accel_linux_usb.h"

#if defined(__linux__) && defined(ACCEL_HAVE_LIBUSB)
#include <libusb.h>

accel_status accel_linux_usb_status(int code)
{
    if (code >= 0) return ACCEL_OK;
    switch (code) {
    case LIBUSB_ERROR_TIMEOUT: return ACCEL_E_TIMEOUT;
    case LIBUSB_ERROR_PIPE: return ACCEL_E_STALL;
    case LIBUSB_ERROR_NO_DEVICE:
    case LIBUSB_ERROR_NOT_FOUND: return ACCEL_E_NO_DEVICE;
    case LIBUSB_ERROR_ACCESS: return ACCEL_E_ACCESS;
    case LIBUSB_ERROR_BUSY: return ACCEL_E_BUSY;
    case LIBUSB_ERROR_INVALID_PARAM: return ACCEL_E_ARG;
    case LIBUSB_ERROR_OVERFLOW: return ACCEL_E_BUFFER_TOO_SMALL;
    case LIBUSB_ERROR_NOT_SUPPORTED: return ACCEL_E_UNSUPPORTED;
    default: return ACCEL_E_IO; /* IO, INTERRUPTED, NO_MEM, OTHER */
    }
}

static accel_status usb_fail(accel_linux *lx, int code)
{
    lx->last_usb_error = code;
    return accel_linux_usb_status(code);
}

static unsigned usb_timeout(uint32_t ms) { return ms ? (unsigned)ms : 1u; }

/* Record which IN endpoints of interface iface are interrupt endpoints. */
static int usb_scan_endpoints(accel_linux *lx, libusb_device *dev, int iface)
{
    struct libusb_config_descriptor *cfg = NULL;
    int rc = libusb_get_active_config_descriptor(dev, &cfg), i, a, e;
    if (rc < 0) return rc;
    lx->usb_intr_in = 0;
    for (i = 0; i < cfg->bNumInterfaces; i++) {
        const struct libusb_interface *itf = &cfg->interface[i];
        for (a = 0; a < itf->num_altsetting; a++) {
            const struct libusb_interface_descriptor *alt = &itf->altsetting[a];
            if (alt->bInterfaceNumber != iface || alt->bAlternateSetting != 0) continue;
            for (e = 0; e < alt->bNumEndpoints; e++) {
                const struct libusb_endpoint_descriptor *ep = &alt->endpoint[e];
                if ((ep->bEndpointAddress & LIBUSB_ENDPOINT_IN) &&
                    (ep->bmAttributes & 0x3u) == LIBUSB_TRANSFER_TYPE_INTERRUPT)
                    lx->usb_intr_in = (uint16_t)(lx->usb_intr_in |
                                                 (1u << (ep->bEndpointAddress & 0x0Fu)));
            }
        }
    }
    libusb_free_config_descriptor(cfg);
    return 0;
}

accel_status accel_linux_usb_open(accel_linux *lx, uint16_t vid, uint16_t pid, int iface)
{
    libusb_context *ctx = NULL;
    libusb_device **list = NULL, *dev = NULL;
    libusb_device_handle *h = NULL;
    ssize_t n, i;
    int rc;
    if (!lx) return ACCEL_E_NULL;
    if (iface < 0 || iface > 255) return ACCEL_E_ARG;
    if (lx->usb_handle) return ACCEL_E_BUSY;
    rc = libusb_init(&ctx);
    if (rc < 0) return usb_fail(lx, rc);
    n = libusb_get_device_list(ctx, &list);
    if (n < 0) {
        libusb_exit(ctx);
        return usb_fail(lx, (int)n);
    }
    rc = LIBUSB_ERROR_NO_DEVICE;
    for (i = 0; i < n; i++) {
        struct libusb_device_descriptor dd;
        if (libusb_get_device_descriptor(list[i], &dd) < 0) continue;
        if (dd.idVendor != vid || dd.idProduct != pid) continue;
        dev = list[i];
        rc = libusb_open(dev, &h); /* the first match; ACCESS here is a udev rule problem */
        break;
    }
    if (rc == 0) rc = usb_scan_endpoints(lx, dev, iface);
    libusb_free_device_list(list, 1); /* h holds its own reference to dev */
    if (rc == 0) {
        (void)libusb_set_auto_detach_kernel_driver(h, 1); /* NOT_SUPPORTED is fine */
        rc = libusb_claim_interface(h, iface);
    }
    if (rc < 0) {
        if (h) libusb_close(h);
        libusb_exit(ctx);
        return usb_fail(lx, rc);
    }
    lx->usb_ctx = ctx;
    lx->usb_handle = h;
    lx->usb_iface = iface;
    return ACCEL_OK;
}

accel_status accel_linux_usb_control(void *user, uint8_t request_type, uint8_t request,
                                     uint16_t value, uint16_t index, uint8_t *data,
                                     uint16_t length, uint32_t timeout_ms, size_t *done)
{
    accel_linux *lx = (accel_linux *)user;
    int rc;
    if (done) *done = 0;
    if (!lx || !done || (!data && length)) return ACCEL_E_NULL;
    if (!lx->usb_handle) return ACCEL_E_CLOSED;
    rc = libusb_control_transfer((libusb_device_handle *)lx->usb_handle, request_type, request,
                                 value, index, data, length, usb_timeout(timeout_ms));
    if (rc < 0) return usb_fail(lx, rc);
    *done = (size_t)rc;
    return ACCEL_OK;
}

/* One bulk or interrupt transfer; *done gets what moved even when it fails. */
static accel_status usb_xfer(accel_linux *lx, uint8_t ep, uint8_t *data, size_t len,
                             uint32_t timeout_ms, size_t *done, int interrupt)
{
    int got = 0, rc;
    if (done) *done = 0;
    if (!lx || !done || (!data && len)) return ACCEL_E_NULL;
    if (!lx->usb_handle) return ACCEL_E_CLOSED;
    if (len > 0x7FFFFFFFu) return ACCEL_E_TOO_LONG; /* libusb lengths are int */
    if (interrupt)
        rc = libusb_interrupt_transfer((libusb_device_handle *)lx->usb_handle, ep, data,
                                       (int)len, &got, usb_timeout(timeout_ms));
    else
        rc = libusb_bulk_transfer((libusb_device_handle *)lx->usb_handle, ep, data, (int)len,
                                  &got, usb_timeout(timeout_ms));
    *done = got > 0 ? (size_t)got : 0u;
    if (rc < 0) return usb_fail(lx, rc);
    return ACCEL_OK;
}

accel_status accel_linux_usb_bulk_out(void *user, uint8_t ep, const uint8_t *data, size_t len,
                                      uint32_t timeout_ms, size_t *done)
{
    if (done) *done = 0;
    if (ep & LIBUSB_ENDPOINT_IN) return ACCEL_E_ARG;
    /* libusb takes a non-const buffer for both directions; an OUT transfer only reads it */
    return usb_xfer((accel_linux *)user, ep, (uint8_t *)(uintptr_t)data, len, timeout_ms, done,
                    0);
}

accel_status accel_linux_usb_bulk_in(void *user, uint8_t ep, uint8_t *data, size_t len,
                                     uint32_t timeout_ms, size_t *done)
{
    accel_linux *lx = (accel_linux *)user;
    if (done) *done = 0;
    if (!(ep & LIBUSB_ENDPOINT_IN)) return ACCEL_E_ARG;
    if (!lx) return ACCEL_E_NULL;
    return usb_xfer(lx, ep, data, len, timeout_ms, done,
                    (int)(((unsigned)lx->usb_intr_in >> (ep & 0x0Fu)) & 1u));
}

void accel_linux_usb_close(accel_linux *lx)
{
    if (!lx) return;
    if (lx->usb_handle) {
        libusb_device_handle *h = (libusb_device_handle *)lx->usb_handle;
        if (lx->usb_iface >= 0) (void)libusb_release_interface(h, lx->usb_iface);
        libusb_close(h);
    }
    if (lx->usb_ctx) libusb_exit((libusb_context *)lx->usb_ctx);
    lx->usb_handle = NULL;
    lx->usb_ctx = NULL;
    lx->usb_iface = -1;
    lx->usb_intr_in = 0;
}

#elif defined(__linux__)
/* Built without libusb: nothing to close. */
void accel_linux_usb_close(accel_linux *lx) { (void)lx; }
#else
typedef int accel_linux_usb_not_linux_; /* ISO C forbids an empty translation unit */
#endif
