/* accel_template.h - the starting point of a new port. Copy ports/template/ to
 * ports/<platform>/, rename "template" everywhere, and replace each TODO with the platform's
 * call. A port turns an accel_port's callbacks into the platform's bus calls; drivers see only
 * the accel_port, and one a port leaves NULL makes them report ACCEL_E_UNSUPPORTED.
 *
 * Usage:
 *   accel_template t;  accel_port port;
 *   accel_template_init(&t);            // no I/O: open the platform's buses after it
 *   accel_template_port(&t, &port);     // give &port to a driver
 *   ...  on an error, t.last_error holds the platform's own code
 *
 * No malloc and no stdio, so it builds for a microcontroller; not interrupt-safe. */
#ifndef ACCEL_TEMPLATE_H
#define ACCEL_TEMPLATE_H
#include "accel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct accel_template {
    int last_error; /* the platform's code of the last failed call (0: none yet) */
    /* TODO: the platform's handles: bus instances, base addresses, pins */
} accel_template;

ACCEL_NODISCARD accel_status accel_template_init(accel_template *t);
/* Fill *port with this port's callbacks (user = t). */
ACCEL_NODISCARD accel_status accel_template_port(accel_template *t, accel_port *port);
/* A platform error code -> accel_status, keeping the code in t->last_error. */
ACCEL_NODISCARD accel_status accel_template_fail(accel_template *t, int err);

#ifdef __cplusplus
}
#endif
#endif
