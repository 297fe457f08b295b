/* accel_linux.c - Linux port: the accel_port fill-in and close-all over the bus files.
 * Usage: see accel_linux.h. */
#include "accel_linux.h"

#ifdef __linux__
accel_status accel_linux_port(accel_linux *lx, accel_port *port)
{
    if (!lx || !port) return ACCEL_E_NULL;
    port->user = lx;
    port->spi_transfer = accel_linux_spi_transfer;
    port->i2c_write_read = accel_linux_i2c_write_read;
#ifdef ACCEL_HAVE_LIBUSB
    port->usb_control = accel_linux_usb_control;
    port->usb_bulk_out = accel_linux_usb_bulk_out;
    port->usb_bulk_in = accel_linux_usb_bulk_in;
#else
    port->usb_control = NULL;
    port->usb_bulk_out = NULL;
    port->usb_bulk_in = NULL;
#endif
    /* No register access: memory-mapped devices need a UIO/VFIO port of their own. */
    port->reg_read32 = NULL;
    port->reg_write32 = NULL;
    port->reg_read64 = NULL;
    port->reg_write64 = NULL;
    port->gpio_set = accel_linux_gpio_set;
    port->wait_irq = accel_linux_wait_irq;
    port->now_ms = accel_linux_now_ms;
    port->delay_ms = accel_linux_delay_ms;
    return ACCEL_OK;
}

void accel_linux_close(accel_linux *lx)
{
    if (!lx) return;
    accel_linux_spi_close(lx);
    accel_linux_i2c_close(lx);
    accel_linux_gpio_close(lx);
    accel_linux_usb_close(lx);
}

#else
typedef int accel_linux_not_linux_; /* ISO C forbids an empty translation unit */
#endif
