/* with_bridge.c - a consumer of accel::bridge: nanopb's headers and library must come with the
 * target wherever nanopb is on the consumer's machine. A Delay request (seq 5, 300 ms) is
 * encoded with nanopb, framed with the bridge's framing, and decoded back. */
#include "accel.h"
#include "accel_bridge.h"
#include "accel_bridge.pb.h"
#include <pb_decode.h>
#include <pb_encode.h>
#include <stdio.h>

int main(void)
{
    accel_bridge_Request req = accel_bridge_Request_init_zero, back = accel_bridge_Request_init_zero;
    uint8_t body[accel_bridge_Request_size], wire[ACCEL_BRIDGE_WIRE_SIZE(accel_bridge_Request_size)];
    pb_ostream_t os = pb_ostream_from_buffer(body, sizeof body);
    pb_istream_t is;
    size_t wire_len = 0;
    req.seq = 5;
    req.which_op = accel_bridge_Request_delay_tag;
    req.op.delay.ms = 300;
    if (!pb_encode(&os, accel_bridge_Request_fields, &req)) return 1;
    if (accel_bridge_frame_encode(body, os.bytes_written, wire, sizeof wire, &wire_len) != ACCEL_OK) return 1;
    is = pb_istream_from_buffer(body, os.bytes_written);
    if (!pb_decode(&is, accel_bridge_Request_fields, &back)) return 1;
    if (back.seq != 5 || back.which_op != accel_bridge_Request_delay_tag || back.op.delay.ms != 300) return 1;
    printf("delay request: %u bytes, %u framed, decoded back\n", (unsigned)os.bytes_written, (unsigned)wire_len);
    return 0;
}
