/* accel.h - drive neural accelerators from a microcontroller or a Linux host.
 * Single header, allocation-free, C99 (and C++). Version ACCEL_VERSION_STRING (0.1.0).
 * MIT licence: see the end of this file.
 *
 * This comment is the manual. Chapters:
 *   1. What it is              6. Concurrency and interrupts
 *   2. Using it                7. Quick start, one per section
 *   3. Configuration           8. Ports
 *   4. Errors                  9. Adding a section
 *   5. Portability            10. Version history and deprecated names
 * Every section repeats its own config macros and its ASSUMPTIONS (what public documentation
 * does not settle, stated plainly, with the macro that overrides each) in its own head comment;
 * search for "SECTION: <name> (declarations)".
 *
 * MAP. Every part of the file carries one token, in its declaration banner and again in its
 * implementation banner: `grep -n '@tsp1.driver' accel.h` lands on both halves, and a section's
 * token (`grep -n '@ane' accel.h`) lists all its parts in order. tests/anchors.sh keeps it so.
 *   @config   version, linkage (ACCELDEF), ACCEL_NODISCARD, CRC-32 choice; the code's defaults
 *   @common   @common.status codes and their strings, @common.bytes byte order, @common.reader,
 *             @common.writer, @common.crc32, @common.ring slot ring, @common.fifo byte FIFO,
 *             @common.deadline, @common.port the port interface, @common.fb FlatBuffers reader
 *   @tsp1     @tsp1.wire frames, @tsp1.decoder streaming decoder, @tsp1.bus registers and FIFO
 *             buffers, @tsp1.driver session, @tsp1.model device model
 *   @edgetpu  @edgetpu.insn instruction bundles, @edgetpu.package compiled models,
 *             @edgetpu.usb_wire USB headers, @edgetpu.usb USB protocol, @edgetpu.bringup,
 *             @edgetpu.model device model, @edgetpu.driver inference, @edgetpu.dfu firmware
 *   @refsi    @refsi.builder, @refsi.decoder decoder / validator, @refsi.fields register
 *             fields, @refsi.model reference command processor
 *   @ane      @ane.direct direct submission (verified): @ane.tm_regs, @ane.td_hdr, @ane.tm
 *             driver, @ane.tm_model; @ane.fw firmware command protocol (unverified): @ane.ids,
 *             @ane.priority, @ane.records, @ane.frames, @ane.proc_call, @ane.trigger, @ane.rpc,
 *             @ane.xl_cmds, @ane.ctl_bodies, @ane.notes; @ane.fw_model firmware reference model:
 *             @ane.exec_loop, @ane.process, @ane.cache, @ane.sched, @ane.kobj, @ane.bringup,
 *             @ane.stats, @ane.doorbell, @ane.dispatch
 *   @mac      @mac.quant requantization, @mac.fc fully connected (and the FC/GEMM kernels it
 *             shares), @mac.conv conv2d, depthwise conv2d and pools, @mac.gemm raw int32 GEMM,
 *             @mac.wide byte-plane products, @mac.flip Edge TPU sign flip
 *   @tflite   @tflite.open validate a model in place, @tflite.plan the arena planner, @tflite.run
 *             init, inputs, invoke, outputs, reset, @tflite.ops the operators
 *   declarations only (macros, nothing to implement): @deprecated.config, @deprecated.names
 *
 * 1. WHAT IT IS
 *   Command codecs, host- and device-side protocol state machines and drivers for several
 *   accelerator families, plus an int8 multiply-accumulate reference engine that is bit-exact
 *   with TensorFlow Lite's reference kernels, and a runner for whole quantized .tflite models on
 *   it (bit-exact with TensorFlow Lite Micro, on caller memory). Nothing here allocates, prints
 *   or keeps hidden global state: the caller owns every buffer and every state struct;
 *   functions that need scratch memory have a ..._scratch_size() companion, and objects that
 *   carve the caller's memory into parts an ..._mem_size() one. Stack: no public function needs
 *   more than 1536 bytes, callbacks not counted, on every target (x86 SIMD builds included;
 *   tests/stack_usage.sh reports it per target). Each device section has four layers:
 *   wire (bytes <-> structs, pure), protocol state (structs and transitions), driver (the state
 *   on a port, with deadlines), and model (the device side, for tests and the simulator port).
 *
 * 2. USING IT
 *   Copy accel.h into your project. In exactly ONE C or C++ file:
 *       #define ACCEL_IMPLEMENTATION
 *       #include "accel.h"
 *   Everywhere else just #include "accel.h". Drivers talk to hardware only through an
 *   accel_port (a struct of optional callbacks, chapter 8).
 *   Names. Public functions are accel_<s>_... (<s> the section; the common section has none)
 *   and follow one rule (tests/names.sh checks every public function against it):
 *   - calls on state name the object, then the verb: accel_<s>_<object>_<verb>
 *     (accel_tsp1_decoder_feed, accel_ring_push, accel_ane_tm_submit); the object is the struct
 *     the first argument points to or the device part reached through it (accel_tsp1_reg_read,
 *     accel_edgetpu_csr_write32). Calls on a section's session or driver itself need no object
 *     (accel_tsp1_call, accel_edgetpu_open), but name one that has calls of its own first
 *     (accel_tsp1_nn_scan, accel_tsp1_nn_query). Lookups read the same way, the thing, then
 *     what is asked (accel_edgetpu_field_name, accel_ane_tq_priority).
 *   - pure transforms name the verb, then the thing: accel_<s>_<verb>_<thing>
 *     (accel_refsi_pack_entry_pt, accel_ane_check_priority, accel_mac_quantize_multiplier); a
 *     mac kernel is named by its TFLite op (accel_mac_conv2d), TFLite's helpers keep TFLite's
 *     names spelled out.
 *   - codecs are accel_<s>_encode_<thing> / accel_<s>_decode_<thing> (a framing is part of the
 *     thing: accel_ane_encode_xl_hdr), inputs first and outputs last: encode(fields...,
 *     uint8_t *out, size_t cap[, size_t *len]), decode(const uint8_t *in, size_t len[, limits],
 *     outputs...).
 *   - caller memory: accel_<s>_<object>_mem_size(dims..., size_t *bytes) for what an object
 *     keeps, accel_<s>_<op>_scratch_size(dims..., size_t *bytes) for what one call borrows.
 *   - _init does no I/O, _open talks to the device; the device side of a section is its model
 *     (accel_<s>_model_*); private names are accel__<s>_*.
 *
 * 3. CONFIGURATION (define before including; or put them in a file named by ACCEL_CONFIG_HEADER)
 *   ACCEL_CONFIG_HEADER "file.h"  included first, so a project keeps its choices in one place.
 *   ACCEL_STATIC                  make every function static (private to the including file; the
 *                                 ports/ files then cannot link to it: compile them into that file).
 *   ACCEL_NO_TSP1, ACCEL_NO_EDGETPU, ACCEL_NO_REFSI, ACCEL_NO_ANE, ACCEL_NO_MAC, ACCEL_NO_TFLITE
 *                                 leave a section out entirely (the common section stays; the
 *                                 tflite section runs on mac: ACCEL_NO_MAC removes it too).
 *   ACCEL_TSP1_NO_MODEL, ACCEL_EDGETPU_NO_MODEL, ACCEL_REFSI_NO_MODEL, ACCEL_ANE_NO_MODEL
 *                                 leave a section's device model out (what MCU builds want; the
 *                                 MAC engine has no model: it is the reference).
 *   ACCEL_NO_STATUS_STRINGS       compile out accel_status_str()'s text (it returns "").
 *   ACCEL_NO_DEPRECATED           hide the old names of chapter 10.
 *   ACCEL_NODISCARD               attribute on every status-returning declaration; default
 *                                 warn_unused_result on clang, nothing elsewhere (GCC warns even
 *                                 through a (void) cast).
 *   ACCEL_ASSERT(x)               internal invariant check (ring and FIFO indices, decoder
 *                                 lengths); default: nothing. Define it as assert(x) in debug
 *                                 builds. Bad INPUT is never asserted on: it gets a status code.
 *   ACCEL_MEMCPY(d,s,n), ACCEL_MEMSET(d,v,n)
 *                                 default: <string.h> on hosted builds, small loops when
 *                                 __STDC_HOSTED__ is 0 (the core then needs only <stddef.h>,
 *                                 <stdint.h>, <limits.h>).
 *   ACCEL_CRC32_IMPL              the portable CRC-32 code: ACCEL_CRC32_BITWISE (no table,
 *                                 smallest), ACCEL_CRC32_NIBBLE (64-byte table; default on
 *                                 8/16/32-bit targets), ACCEL_CRC32_TABLE256 (1 KiB table),
 *                                 ACCEL_CRC32_SLICE8 (8 KiB), ACCEL_CRC32_BRAID (16 KiB, four
 *                                 interleaved lanes; default on 64-bit hosts).
 *   ACCEL_CRC32_NO_SIMD           use no CRC instructions. Otherwise accel_crc32_update uses what
 *                                 the compiler targets (GCC/Clang), shown by the read-only
 *                                 ACCEL_CRC32_SIMD: 1 = x86-64 PCLMULQDQ + SSE4.1 folding
 *                                 (-mpclmul -msse4.1; hosted), 2 = the same plus 512-bit
 *                                 VPCLMULQDQ (-mavx512f -mvpclmulqdq), 3 = AArch64 CRC32
 *                                 (-march=armv8-a+crc; no table), 0 = none. All give identical
 *                                 results.
 *   Per section (full lists in each section's head comment):
 *   tsp1     ACCEL_TSP1_BIG_ENDIAN, the preambles, ACCEL_TSP1_CRC, the SPI transaction format
 *            (ACCEL_TSP1_SPI_*, or your own accel_tsp1_xfer with ACCEL_TSP1_XFER_CUSTOM), the
 *            register map (ACCEL_TSP1_REG_*), ACCEL_TSP1_READ_CHUNK, ACCEL_TSP1_I2C and
 *            ACCEL_TSP1_I2C_MAX_WRITE (an invented I2C format, opt-in), ACCEL_TSP1_MARKER (0:
 *            no ECHO behind a command that answers nothing, which then ends UNKNOWN_OUTCOME
 *            unless the device answers it with an error), ACCEL_TSP1_IN_PLACE.
 *   edgetpu  ACCEL_EDGETPU_NO_DISASM, ACCEL_EDGETPU_MAX_EXECUTABLES, ACCEL_EDGETPU_MAX_CACHED,
 *            ACCEL_EDGETPU_MODEL_REGS/_MODEL_SCRIPT.
 *   refsi    ACCEL_REFSI_UNIT_CMP, ACCEL_REFSI_UNIT_HART(h), ACCEL_REFSI_INVALID_ADDR.
 *   ane      ACCEL_ANE_TM_BASE, ACCEL_ANE_TQ_BASE, ACCEL_ANE_TQ_EN_BITS, timeouts, and the
 *            firmware values no public source gives (ACCEL_ANE_CALL_CONTAINER_SIZE, ...).
 *   mac      ACCEL_MAC_NO_FLOAT (integer only), ACCEL_MAC_FAST (fast kernels; default on 32-
 *            and 64-bit targets, off on 8/16-bit; bit-identical to the small loops),
 *            ACCEL_MAC_MCU (the kernels for in-order 32-bit cores; default with ACCEL_MAC_FAST
 *            where pointers are 32-bit), ACCEL_MAC_SIMD / ACCEL_MAC_NO_SIMD.
 *   tflite   ACCEL_TFLITE_MAX_DIMS (tensor rank, 6), ACCEL_TFLITE_OPS (the operators a build
 *            keeps; default all); integer only (ACCEL_MAC_NO_FLOAT leaves out DEQUANTIZE).
 *
 * 4. ERRORS
 *   Every function that can fail returns accel_status: 0 (ACCEL_OK) on success, a negative
 *   code otherwise, with results written through out-parameters; accel_status_str() names a
 *   code. Functions that cannot fail return their value directly (byte loads and stores, CRC,
 *   ring/FIFO counts, deadline arithmetic, the TFLite arithmetic helpers, register packers) or
 *   nothing. Each section owns a range of 100 codes (tsp1 -100.., edgetpu -200.., refsi -300..,
 *   ane -400.., mac -500.., tflite -600..); the bridge port (ports/bridge) has -95..-99 at the end of the
 *   common range. Bytes from a bus, a file or a device are untrusted: every length
 *   and offset is checked, and bad input gets the status that names the rule it broke.
 *
 * 5. PORTABILITY
 *   8/16/32/64-bit targets (int may be 16 bits), no unaligned access, explicit byte order.
 *   Built warning-free with -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion
 *   -Wcast-align -Wundef -Wshadow, as C++11/17, and for Cortex-M0+/M4, rv32 and AVR.
 *
 * 6. CONCURRENCY AND INTERRUPTS
 *   - Nothing in accel is interrupt-safe. From an interrupt handler, only note the event (set a
 *     flag, give a semaphore) and let the port's wait_irq callback see it; call accel from
 *     thread or main-loop context.
 *   - Objects are independent: there is no global state, so different session objects may be
 *     used from different threads at once. One object (a driver session, a decoder, a model)
 *     must be used by one thread at a time; lock around it if you share it.
 *   - Callbacks (on_outcome, on_async, progress, read, kernel, memory callbacks) run inside
 *     the accel call that triggered them. They must not call back into the object that called
 *     them (no submit or poll from on_outcome): copy what you need and act after the call
 *     returns. They may use other objects freely.
 *   - Port callbacks must not call accel functions on the driver that is using that port.
 *
 * 7. QUICK START, ONE PER SECTION (each compiles as shown; the demos in examples/host/ are the
 *    long versions; tests/quickstart.sh builds every listing below). The "> " lines before each
 *    listing are the section's entry points: the calls a host makes, in order.
 *   == tsp1: a session with a TSP1 over SPI (examples/host/demo_tsp1.c, accel-tsp1.c)
 *   > accel_tsp1_driver_mem_size   the caller's memory for the commands pending at once and the
 *                              largest payloads (ACCEL_TSP1_DRIVER_MEM: the same, as a constant)
 *   > accel_tsp1_init          the port and that memory in a config; no I/O
 *   > accel_tsp1_wait_ready    after power-up, until the device has booted (ASYNC_READY)
 *   > accel_tsp1_sync          the session's start: until then no answer is taken as its own
 *                              (the device may still hold an earlier session's); the first
 *                              submit does the same if this is not called
 *   > accel_tsp1_call          one command, blocking; or accel_tsp1_submit, then accel_tsp1_poll
 *                              from the main loop (results through config.on_outcome)
 *   > accel_tsp1_nn_scan, accel_tsp1_nn_control, accel_tsp1_update_run   networks, firmware
 *   > accel_tsp1_async_take    what the device sent unasked
 *   | static uint32_t mem[(ACCEL_TSP1_DRIVER_MEM(8, 256, 256) + 3) / 4];  // aligned
 *   | static accel_tsp1 s;
 *   | // nonce: differs between sessions (a boot counter); cold: the TSP1 was just powered up
 *   | // (one left running by an earlier session sends no ASYNC_READY)
 *   | accel_status tsp1_hello(const accel_port *port, uint32_t nonce, int cold, uint8_t *out,
 *   |                         size_t cap, size_t *len)
 *   | {
 *   |     accel_tsp1_config c;
 *   |     accel_status st;
 *   |     memset(&c, 0, sizeof c);         // unused callbacks and options stay 0
 *   |     c.bus.port = port;               c.bus.addr = 0;    // chip select 0
 *   |     c.mem = mem;                     c.mem_len = sizeof mem;
 *   |     c.depth = 8;                     // commands pending at once
 *   |     c.cmd_payload = 256;             c.rsp_payload = 256;    // largest payloads
 *   |     c.nonce = nonce;                 // the first TID and the session's ECHO bytes
 *   |     c.auto_clear = 1;                // clear the device's error state at once
 *   |     st = accel_tsp1_init(&s, &c);    // no I/O yet
 *   |     if (st == ACCEL_OK && cold) st = accel_tsp1_wait_ready(&s, 1000);
 *   |     if (st == ACCEL_OK) st = accel_tsp1_sync(&s, 1000);
 *   |     if (st == ACCEL_OK) st = accel_tsp1_call(&s, ACCEL_TSP1_ECHO, "hi", 2, out, cap, len, 200);
 *   |     return st;
 *   | }
 *   == edgetpu: one inference on a Coral USB accelerator (examples/host/demo_edgetpu.c)
 *   > accel_edgetpu_dfu_download, accel_edgetpu_dfu_detach   only when the device enumerates
 *                              in DFU mode (no firmware yet)
 *   > accel_edgetpu_package_init_tflite   the compiled model: a package of executables
 *   > accel_edgetpu_driver_init, accel_edgetpu_open   the port; the chip's bring-up
 *   > accel_edgetpu_invoke     per inference (parameters are sent once, then cached)
 *   > accel_edgetpu_close
 *   | accel_status edgetpu_run(const accel_port *usb, const uint8_t *tflite, size_t n,
 *   |                          accel_edgetpu_io *io)   // io: inputs, outputs, scratch
 *   | {
 *   |     static accel_edgetpu_driver drv;
 *   |     accel_edgetpu_package pkg;
 *   |     accel_status st = accel_edgetpu_package_init_tflite(&pkg, tflite, n);
 *   |     if (st == ACCEL_OK) st = accel_edgetpu_driver_init(&drv, usb, 0);
 *   |     if (st == ACCEL_OK) st = accel_edgetpu_open(&drv.usb, ACCEL_EDGETPU_PERF_HIGH, 1);
 *   |     if (st == ACCEL_OK) st = accel_edgetpu_invoke(&drv, &pkg, io, NULL);
 *   |     if (st == ACCEL_OK) st = accel_edgetpu_close(&drv.usb);
 *   |     return st;
 *   | }
 *   == refsi: build a command buffer, check it, run it on the model (examples/host/demo_refsi.c)
 *   > accel_refsi_builder_init    over the caller's buffer
 *   > accel_refsi_emit_copy_mem64, accel_refsi_emit_run_kernel_slice, ...   one call a command
 *   > accel_refsi_emit_finish
 *   > accel_refsi_validate        or accel_refsi_iter_init + accel_refsi_iter_next to walk it
 *   > accel_refsi_model_init, accel_refsi_model_execute   the reference command processor
 *   | accel_status refsi_copy(const accel_refsi_model_config *cfg, uint64_t dst, uint64_t src)
 *   | {
 *   |     uint8_t buf[64];
 *   |     accel_refsi_builder b;
 *   |     accel_refsi_model cmp;
 *   |     accel_refsi_report rep;
 *   |     accel_status st = accel_refsi_builder_init(&b, buf, sizeof buf);
 *   |     if (st == ACCEL_OK) st = accel_refsi_emit_copy_mem64(&b, 8, dst, src, ACCEL_REFSI_UNIT_CMP);
 *   |     if (st == ACCEL_OK) st = accel_refsi_emit_finish(&b);
 *   |     if (st == ACCEL_OK) st = accel_refsi_validate(buf, b.len, NULL, NULL, NULL);
 *   |     if (st == ACCEL_OK) st = accel_refsi_model_init(&cmp, cfg);
 *   |     if (st == ACCEL_OK) st = accel_refsi_model_execute(&cmp, buf, b.len, &rep);
 *   |     return st;   // on error rep names the command, byte offset and reason
 *   | }
 *   == ane: one task chain through the task manager (examples/host/demo_ane.c)
 *   > accel_ane_tm_init, accel_ane_tm_enable   the port's register space; queues on
 *   > accel_ane_tm_submit      one chain: accel_ane_check_request, accel_ane_tm_enqueue and
 *                              accel_ane_tm_execute in one call
 *   > accel_ane_tm_disable
 *   > firmware protocol (unverified): accel_ane_encode_ctl_hdr and a body encoder such as
 *     accel_ane_encode_inference, or accel_ane_encode_xl_proc_call; accel_ane_decode_note reads
 *     what comes back
 *   | accel_status ane_run(const accel_port *regs, uint32_t td_iova, uint32_t td_size)
 *   | {
 *   |     accel_ane_tm tm;
 *   |     accel_ane_request rq;
 *   |     accel_ane_result res;
 *   |     accel_status st = accel_ane_tm_init(&tm, regs);
 *   |     memset(&rq, 0, sizeof rq);       // no BAR words
 *   |     rq.qid = 4; rq.nid = 1; rq.td_size = td_size; rq.td_count = 1; rq.btsp_iova = td_iova;
 *   |     if (st == ACCEL_OK) st = accel_ane_tm_enable(&tm);
 *   |     if (st == ACCEL_OK) st = accel_ane_tm_submit(&tm, &rq, &res);
 *   |     return st;   // ACCEL_E_TIMEOUT: the queue was drained and released anyway
 *   | }
 *   == mac: check what an accelerator computed for a fully connected layer (demo_mac.c)
 *   > accel_mac_quantize_multiplier   a layer's real scale -> multiplier and shift, once
 *   > accel_mac_fully_connected, accel_mac_conv2d, accel_mac_depthwise_conv2d,
 *     accel_mac_max_pool2d, accel_mac_average_pool2d   one call a layer
 *   > accel_mac_fully_connected_pack_mem_size, accel_mac_fully_connected_pack, then
 *     accel_mac_fully_connected_packed   the faster FC for weights used many times
 *   | accel_status fc_check(const int8_t *in, const int8_t *w, const int32_t *bias,
 *   |                       const int8_t *device_out)   // 1 x 16 input, 4 x 16 weights
 *   | {
 *   |     int8_t ref[4];
 *   |     int32_t mult = 1518500250, shift = -7;     // per tensor: scale 0.00552 = m * 2^(s-31)
 *   |     accel_mac_quant q = {ACCEL_MAC_INT8, 0, 0, 0, NULL, NULL, 1, -128, 127,
 *   |                          ACCEL_MAC_ROUND_DOUBLE};
 *   |     accel_status st;
 *   |     q.multiplier = &mult; q.shift = &shift;
 *   |     st = accel_mac_fully_connected(1, 16, 4, in, 16, w, 64, bias, 4, &q, ref, 4);
 *   |     if (st == ACCEL_OK && memcmp(ref, device_out, 4) != 0) st = ACCEL_E_MALFORMED;
 *   |     return st;
 *   | }
 *   == tflite: run a quantized .tflite model on caller memory (examples/host/accel-run.c)
 *   | static uint32_t arena[16384];        // 64 KiB, 4-byte aligned; size it with _plan
 *   | accel_status tflite_run(const uint8_t *model, size_t n, const int8_t *in, size_t in_len,
 *   |                         int8_t *out, size_t cap, size_t *out_len)
 *   | {
 *   |     accel_tflite_model m;
 *   |     accel_tflite rt;
 *   |     size_t need = 0;
 *   |     accel_status st = accel_tflite_open(&m, model, n);   // validates everything
 *   |     if (st == ACCEL_OK) st = accel_tflite_plan(&m, arena, sizeof arena, &need);
 *   |     if (st == ACCEL_OK) st = accel_tflite_init(&rt, &m, arena, sizeof arena);
 *   |     if (st == ACCEL_OK) st = accel_tflite_set_input(&rt, 0, in, in_len);
 *   |     if (st == ACCEL_OK) st = accel_tflite_invoke(&rt);   // rt.bad_op names a failure
 *   |     if (st == ACCEL_OK) st = accel_tflite_get_output(&rt, 0, out, cap, out_len);
 *   |     return st;
 *   | }
 *
 * 8. PORTS
 *   One struct of optional callbacks plus a user pointer (SPI transfer, I2C write-read, USB
 *   control and bulk, 32/64-bit registers, GPIO set, wait-for-IRQ, milliseconds, delay; see
 *   "the port interface" in the common section). A port fills in what its platform has; a
 *   driver that needs a missing callback gets ACCEL_E_UNSUPPORTED. SPI transactions span calls
 *   with ACCEL_SPI_KEEP_CS; a port that holds chip select between calls also takes a len 0,
 *   flags 0 transfer as "end the held transaction" (chip select high, nothing clocked; nothing
 *   at all when none is held), which accel_port_spi_transfer passes on. In the repository's
 *   ports/:
 *     sim/       an in-memory port served by a section's model, with a virtual clock and fault
 *                injection (the port every test and demo uses)
 *     linux/     spidev, i2c-dev, the GPIO character device, libusb-1.0, serial lines
 *     arduino/   SPI, pins, millis/delay over the Arduino core (Wire in its own header);
 *                `make arduino` packs the library zip
 *     zephyr/    a Zephyr module (Zephyr 4.1-4.3): spi/i2c/gpio _dt calls, the IRQ through a
 *                k_sem; emul/ puts the TSP1 model behind Zephyr's SPI emulator for native_sim
 *     bridge/    nanopb bridge: a host-side port whose calls run on a microcontroller, the
 *                device side that serves them, captures and their replay as a device
 *                (accel_replay); PROTOCOL.md is the wire protocol, python/ a host client
 *     impl/      accel_impl.c: the implementation as a file of its own (libraries, CMake)
 *     template/  what a new platform copies (about 50 lines)
 *   README.md says how to use each.
 *
 * 9. ADDING A SECTION (checklist)
 *   - Pick the next free range of 100 status codes; add the codes to accel_status and a string
 *     for each to accel_status_str's table (test_common checks every code has one).
 *   - Declarations under "SECTION: <name> (declarations)" inside #ifndef ACCEL_NO_<NAME>, with a
 *     head comment: layers, config macros, ASSUMPTIONS; implementation in the same order under
 *     ACCEL_IMPLEMENTATION. Every part gets a token @<name>.<part> in both its banners and in
 *     the MAP above (tests/anchors.sh checks all three). Names follow chapter 2's rule; add the
 *     section's objects and verbs to tests/names.sh. The device side is the section's model
 *     (accel_<name>_model_*, removable with ACCEL_<NAME>_NO_MODEL).
 *   - Never call another section: move what two sections share into common.
 *   - Add the section to chapters 3 and 7 above, to SECTIONS in scripts/test.sh (the
 *     ACCEL_NO_<NAME> and alone builds), to scripts/size.sh's table, a tests/test_<name>.c, a
 *     libFuzzer target tests/fuzz/fuzz_<name>.c with seeds in tests/fuzz/seeds/<name>/, a demo in
 *     examples/host/demo_<name>.c, and every new config macro to tests/macro_matrix.sh.
 *
 * 10. VERSION HISTORY AND DEPRECATED NAMES
 *   0.1.0  first numbered release. One vocabulary across sections: the device side of every
 *          section is its model (edgetpu dev -> model, and the compiled program set that was
 *          accel_edgetpu_model is now accel_edgetpu_package; ane fw -> fw_model, regmodel ->
 *          tm_model; refsi cmp -> model); codecs are accel_<s>_encode_<thing> /
 *          accel_<s>_decode_<thing>; accel_tsp1_open -> accel_tsp1_init (it does no I/O);
 *          TFLite's helper names spelled out in mac. The old names stay as macros (see
 *          "deprecated names" at the end of the declarations) until 0.2.0.
 *   next   (unreleased) The bridge's status codes (ACCEL_BRIDGE_E_*, -95..-99) are in the
 *          accel_status enum. accel_port_spi_transfer with length 0 and no flags ends a
 *          transaction held with ACCEL_SPI_KEEP_CS (it was ACCEL_E_ZERO_LENGTH). A TSP1 frame's
 *          payload may point into the data given to accel_tsp1_decoder_feed
 *          (ACCEL_TSP1_IN_PLACE; 0 restores the old behaviour). ACCEL_MAC_FAST is on by
 *          default on 32-bit targets too (the ACCEL_MAC_MCU kernels). Prepacked fully
 *          connected: accel_mac_fully_connected_pack_mem_size / _pack / _packed.
 *          One naming rule (chapter 2); the names it moved keep their old spelling until 0.2.0:
 *          accel_tsp1_query_nn -> accel_tsp1_nn_query; accel_tsp1_encode_cmd / _encode_u32 /
 *          _encode_frame -> accel_tsp1_encode_command / _encode_command_u32 / _encode_raw_frame
 *          and accel_edgetpu_encode_header -> accel_edgetpu_encode_usb_header (decode_header ->
 *          decode_usb_header), accel_ane_encode_stats -> accel_ane_encode_run_stats
 *          (decode_stats -> decode_run_stats), each with its output last (the old names are
 *          macros that reorder the arguments); accel_edgetpu_decode_tflite / _decode_package ->
 *          accel_edgetpu_package_init_tflite / _package_init (the package borrows the bytes, like
 *          a reader); ane: pc_check, chain_buf_check, boot_heap_check -> check_proc_call,
 *          check_chain_buf, check_boot_heap; pc_variant -> proc_call_variant; ctl_/xl_ codecs
 *          -> encode_ctl_* / decode_ctl_* / encode_xl_* / decode_xl_*. Zephyr's Kconfig
 *          ACCEL_EDGETPU_DEVMODEL -> ACCEL_EDGETPU_MODEL. One caller-memory pattern,
 *          accel_status accel_<s>_<object>_mem_size / _<op>_scratch_size(dims..., size_t *bytes):
 *          accel_tsp1_model_mem_size takes the size_t * (called with two arguments it still
 *          returns the size until 0.2.0), new accel_ane_msgq_mem_size and
 *          accel_edgetpu_dfu_verify_scratch_size.
 *          TSP1 sessions: the driver takes one memory block (accel_tsp1_config mem, mem_len,
 *          depth, cmd_payload, rsp_payload; accel_tsp1_driver_mem_size, ACCEL_TSP1_DRIVER_MEM),
 *          its six separate fields (pending_mem/_len, rx_mem/_len, tx_mem/_len) stay until
 *          0.2.0; a session takes no answer as its own before its synchronising ECHO comes back
 *          (accel_tsp1_sync, or its first submit; config.nonce); ACCEL_TSP1_MARKER.
 *          The tflite section (whole .tflite models) and its status codes (-600..); the FlatBuffers
 *          reader the edgetpu section had is common (accel_fb_*; accel_edgetpu_view and _fbt are
 *          now typedefs of accel_fb_view and accel_fb_table).
 */

/* ============================================================================================
 * SECTION: config @config
 * ============================================================================================ */
#ifndef ACCEL_H_INCLUDED
#define ACCEL_H_INCLUDED

/* Version: ACCEL_VERSION is major * 10000 + minor * 100 + patch, for #if comparisons. */
#define ACCEL_VERSION_MAJOR 0
#define ACCEL_VERSION_MINOR 1
#define ACCEL_VERSION_PATCH 0
#define ACCEL_VERSION_STRING "0.1.0"
#define ACCEL_VERSION (ACCEL_VERSION_MAJOR * 10000 + ACCEL_VERSION_MINOR * 100 + ACCEL_VERSION_PATCH)

#ifdef ACCEL_CONFIG_HEADER
/* cppcheck-suppress preprocessorErrorDirective ; the user names the file: none to analyse */
#include ACCEL_CONFIG_HEADER
#endif

#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#ifdef ACCEL_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define ACCELDEF static __attribute__((unused)) /* a static build may not use every function */
#else
#define ACCELDEF static
#endif
#else
#define ACCELDEF extern
#endif

/* ---- @deprecated.config: deprecated names of config macros (renamed in 0.1.0; accepted until 0.2.0) ---- */
#if defined(ACCEL_EDGETPU_NO_DEVMODEL) && !defined(ACCEL_EDGETPU_NO_MODEL)
#define ACCEL_EDGETPU_NO_MODEL
#endif
#if defined(ACCEL_EDGETPU_DEV_REGS) && !defined(ACCEL_EDGETPU_MODEL_REGS)
#define ACCEL_EDGETPU_MODEL_REGS ACCEL_EDGETPU_DEV_REGS
#endif
#if defined(ACCEL_EDGETPU_DEV_SCRIPT) && !defined(ACCEL_EDGETPU_MODEL_SCRIPT)
#define ACCEL_EDGETPU_MODEL_SCRIPT ACCEL_EDGETPU_DEV_SCRIPT
#endif
/* end of the deprecated config names */

/* ACCEL_NODISCARD marks every function that returns an accel_status, so a dropped status is a
 * compiler warning. On by default with clang; GCC would warn even where a (void) cast says the
 * drop is deliberate, so there it is off unless you define it. */
#ifndef ACCEL_NODISCARD
#if defined(__clang__)
#define ACCEL_NODISCARD __attribute__((warn_unused_result))
#else
#define ACCEL_NODISCARD
#endif
#endif

#ifndef ACCEL_ASSERT
#define ACCEL_ASSERT(x) ((void)0)
#endif

/* CRC-32 implementation choices (see the head comment). ACCEL_CRC32_IMPL picks the portable
 * code; all give identical results. */
#define ACCEL_CRC32_BITWISE 1
#define ACCEL_CRC32_NIBBLE 2
#define ACCEL_CRC32_TABLE256 3
#define ACCEL_CRC32_SLICE8 4
#define ACCEL_CRC32_BRAID 5
#ifndef ACCEL_CRC32_IMPL
#if defined(UINTPTR_MAX) && UINTPTR_MAX > 0xFFFFFFFFu
#define ACCEL_CRC32_IMPL ACCEL_CRC32_BRAID
#else
#define ACCEL_CRC32_IMPL ACCEL_CRC32_NIBBLE
#endif
#endif
#if ACCEL_CRC32_IMPL < ACCEL_CRC32_BITWISE || ACCEL_CRC32_IMPL > ACCEL_CRC32_BRAID
#error "ACCEL_CRC32_IMPL must be one of ACCEL_CRC32_BITWISE/NIBBLE/TABLE256/SLICE8/BRAID"
#endif
/* ACCEL_CRC32_SIMD (read-only) says which instructions accel_crc32_update uses, chosen from the
 * compiler's target macros (GCC/Clang; ACCEL_CRC32_NO_SIMD turns them all off):
 *   1  x86-64 PCLMULQDQ + SSE4.1 (-mpclmul -msse4.1, or a -march that has them; hosted builds):
 *      carry-less-multiply folding of 16-byte blocks; inputs under 16 bytes take the portable code
 *   2  as 1, plus 512-bit folding for inputs of 256 bytes or more where the target also has
 *      AVX-512F and VPCLMULQDQ (-mavx512f -mvpclmulqdq)
 *   3  AArch64 CRC32 instructions (__ARM_FEATURE_CRC32: -march=armv8-a+crc or later): every
 *      byte, no table (ACCEL_CRC32_IMPL is then unused)
 *   0  none: the portable ACCEL_CRC32_IMPL code only. */
#if !defined(ACCEL_CRC32_NO_SIMD) && (defined(__GNUC__) || defined(__clang__))
#if defined(__x86_64__) && defined(__STDC_HOSTED__) && __STDC_HOSTED__ && defined(__PCLMUL__) && \
    defined(__SSE4_1__)
#if defined(__AVX512F__) && defined(__VPCLMULQDQ__)
#define ACCEL_CRC32_SIMD 2
#else
#define ACCEL_CRC32_SIMD 1
#endif
#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#define ACCEL_CRC32_SIMD 3
#endif
#endif
#ifndef ACCEL_CRC32_SIMD
#define ACCEL_CRC32_SIMD 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================
 * SECTION: common @common
 * Status codes, bounds-checked byte reader/writer, CRC-32/ISO-HDLC, a ring of fixed-size slots,
 * a byte FIFO, wrap-safe deadlines and the port interface every driver talks through.
 * ============================================================================================ */

/* ---- @common.status: the status codes and their strings ---- */
/* One status enum for the whole library. 0 is success, every error is negative. Each device
 * section owns a range of 100 codes so sections can grow without renumbering each other. */
typedef enum accel_status {
    ACCEL_OK = 0,
    /* common: -1 .. -99 */
    ACCEL_E_NULL = -1,             /* a required pointer argument was NULL */
    ACCEL_E_ZERO_LENGTH = -2,      /* a length or count that must be > 0 was 0 */
    ACCEL_E_TOO_LONG = -3,         /* a length exceeds what the format or object allows */
    ACCEL_E_BUFFER_TOO_SMALL = -4, /* the caller's output buffer cannot hold the result */
    ACCEL_E_TRUNCATED = -5,        /* input ended before a complete field or record */
    ACCEL_E_FULL = -6,             /* queue, ring or FIFO has no room; nothing was stored */
    ACCEL_E_EMPTY = -7,            /* queue, ring or FIFO holds nothing to take */
    ACCEL_E_CLOSED = -8,           /* the device or port is not open (or was closed) */
    ACCEL_E_TIMEOUT = -9,          /* a deadline passed before the device answered */
    ACCEL_E_UNSUPPORTED = -10,     /* the port leaves the needed callback NULL (or: not this build) */
    ACCEL_E_IO = -11,              /* the bus or OS reported an I/O error (port keeps errno) */
    ACCEL_E_ARG = -12,             /* an argument is out of its documented range */
    ACCEL_E_BUSY = -13,            /* the device or object is busy; try again later */
    ACCEL_E_STATE = -14,           /* the call is not valid in the current state */
    ACCEL_E_CRC = -15,             /* a checksum did not match */
    ACCEL_E_MALFORMED = -16,       /* input violates its format */
    ACCEL_E_NO_DEVICE = -17,       /* no such device (not found, unplugged) */
    ACCEL_E_ACCESS = -18,          /* permission denied by the OS */
    ACCEL_E_OVERFLOW = -19,        /* an arithmetic result does not fit its type */
    ACCEL_E_STALL = -20,           /* USB endpoint stalled / request refused by the device */
    ACCEL_E_ALIGN = -21,           /* an address or size is not suitably aligned */
    ACCEL_E_FAULT = -22,           /* a fault injected by the simulator (ports/sim) */
    /* the bridge (ports/bridge): its own codes at the end of the common range, since the bridge
       is a port, not a section. Where a common code is precise the bridge uses that one. */
    ACCEL_BRIDGE_E_CAPTURE_END = -95, /* replay: the capture has no more exchanges */
    ACCEL_BRIDGE_E_DIVERGED = -96,    /* replay: the request differs from the recorded one */
    ACCEL_BRIDGE_E_NO_SESSION = -97,  /* the bridge device has no session (it restarted or never
                                         saw hello): the request did not run now; if it was a
                                         retry, an earlier send may have run before the restart */
    ACCEL_BRIDGE_E_VERSION = -98,     /* the far end speaks another bridge protocol version */
    ACCEL_BRIDGE_E_LINK_TIMEOUT = -99, /* no answer over the bridge link after every retry: the
                                         request may or may not have run. Distinct from
                                         ACCEL_E_TIMEOUT, which a device port reports (an IRQ
                                         that did not come) inside a delivered answer. */
    /* tsp1: -100 .. -199 */
    ACCEL_E_TSP1_ERR_ARG = -100,      /* device answered ERR_ARG (0x9000) */
    ACCEL_E_TSP1_ERR_BUSY = -101,     /* device answered ERR_BUSY (0x9001) */
    ACCEL_E_TSP1_ERR_LEN = -102,      /* device answered ERR_LEN (0x9002) */
    ACCEL_E_TSP1_ERR_MEM = -103,      /* device answered ERR_MEM (0x9003) */
    ACCEL_E_TSP1_ERR_CRYPT = -104,    /* device answered ERR_CRYPT (0x9004) */
    ACCEL_E_TSP1_ERR_CHECKSUM = -106, /* device answered ERR_CHECKSUM (0x9006) */
    ACCEL_E_TSP1_ERR_FRAMING = -107,  /* device answered ERR_FRAMING (0x9007) */
    ACCEL_E_TSP1_DISCARDED = -110,    /* the command did not run (discarded in the error state) */
    ACCEL_E_TSP1_UNKNOWN_OUTCOME = -111, /* the driver cannot know whether the command ran */
    ACCEL_E_TSP1_RESPONSE_LOST = -112, /* reserved: the driver no longer reports it (a lost answer
                                          leaves the outcome unknown) */
    ACCEL_E_TSP1_ERROR_STATE = -113,  /* device queue is in its error state: clear it first */
    ACCEL_E_TSP1_MASK = -114,         /* network mask selects a slot not known to hold a network */
    ACCEL_E_TSP1_ASLEEP = -115,       /* device is in deep sleep: wake it first */
    ACCEL_E_TSP1_UNEXPECTED = -116,   /* the response id is not what the command answers with */
    ACCEL_E_TSP1_ROM = -117,          /* the device booted into its ROM bootloader (no valid
                                         firmware image: finish a secure update) */

    /* edgetpu: -200 .. -299 */
    ACCEL_E_EDGETPU_FATAL = -200,    /* fatal error interrupt; hib error status read back */
    ACCEL_E_EDGETPU_EVENT = -201,    /* an event with an unexpected tag */
    ACCEL_E_EDGETPU_NO_TOKEN = -202, /* parameter-caching executable without a token */
    ACCEL_E_EDGETPU_DFU = -203,      /* DFU device reported an error or unexpected state */
    ACCEL_E_EDGETPU_VERIFY = -204,   /* uploaded firmware differs from the image */

    /* refsi: -300 .. -399 */
    ACCEL_E_REFSI_RESERVED = -300,        /* header bits 7:0 are not zero */
    ACCEL_E_REFSI_PACKET_ID = -301,       /* header bits 31:30 (packet id) are not 3 */
    ACCEL_E_REFSI_ODD_COUNT = -302,       /* header count (32-bit units) is odd */
    ACCEL_E_REFSI_OPCODE = -303,          /* unknown opcode */
    ACCEL_E_REFSI_PAYLOAD_COUNT = -304,   /* payload chunks wrong for the opcode */
    ACCEL_E_REFSI_OVERRUN = -305,         /* payload count runs past the buffer's end */
    ACCEL_E_REFSI_PARTIAL_CHUNK = -306,   /* buffer ends inside a 64-bit chunk */
    ACCEL_E_REFSI_INLINE_RESERVED = -307, /* inline chunk bits the opcode leaves unused are set */
    ACCEL_E_REFSI_REG = -308,             /* CMP register index >= 40 */
    ACCEL_E_REFSI_NARGS = -309,           /* RUN_INSTANCES with more than 7 arguments */
    ACCEL_E_REFSI_ADDR32 = -310,          /* STORE_IMM64 destination does not fit 32 bits */
    ACCEL_E_REFSI_SRC_ALIGN = -311,       /* COPY_MEM64 source not 8-byte aligned */
    ACCEL_E_REFSI_MAX_HARTS = -312,       /* MAX_HARTS above 255 */
    ACCEL_E_REFSI_CACHE_FLAGS = -313,     /* SYNC_CACHE flags other than DCACHE/ICACHE */
    ACCEL_E_REFSI_FIELD_RANGE = -314,     /* a register field value is out of its range */
    ACCEL_E_REFSI_REG_RESERVED = -315,    /* a register value has reserved bits or MODE 3 */
    ACCEL_E_REFSI_WINDOW_BOUNDS = -316,   /* an access crosses a window's edge */
    ACCEL_E_REFSI_WINDOW_PERM = -317,     /* the window's PERMS forbid the access */
    ACCEL_E_REFSI_KUB_RANGE = -318,       /* KARGS/TSD range lies outside the KUB */
    ACCEL_E_REFSI_KTB_SIZE = -319,        /* TSD_SIZE exceeds the per-hart KTB area */
    ACCEL_E_REFSI_INSTANCES = -320,       /* NUM_INSTANCES above the configured limit */

    /* ane: -400 .. -499 */
    ACCEL_E_ANE_QUEUE = -400,        /* task-queue id is not 0..7 */
    ACCEL_E_ANE_NID = -401,          /* network id does not fit 8 bits */
    ACCEL_E_ANE_BAR_COUNT = -402,    /* more than 32 BAR words */
    ACCEL_E_ANE_TD_SIZE = -403,      /* TD size not a multiple of 4 in 4..0x40000 */
    ACCEL_E_ANE_TD_COUNT = -404,     /* TD count not in 1..0xFFFF */
    ACCEL_E_ANE_QUEUE_BUSY = -405,   /* the task queue already holds a submission */
    ACCEL_E_ANE_ID = -406,               /* command id outside its id space or family */
    ACCEL_E_ANE_UNSUPPORTED_CMD = -407,  /* id not on the exec-loop fast path: firmware panics */
    ACCEL_E_ANE_DIRECTION = -408,        /* id flows the other way (host vs notification) */
    ACCEL_E_ANE_PRIORITY = -409,         /* fwPriority < 8 violated */
    ACCEL_E_ANE_PRIORITY_BAND = -410,    /* realtime band 0..1 not admitted here (2..7) */
    ACCEL_E_ANE_PROGRAM_ID = -411,       /* programId >= 144 (or < -1 in a header) */
    ACCEL_E_ANE_PROCEDURE_ID = -412,     /* procId >= 288 */
    ACCEL_E_ANE_PROCESS_ID = -413,       /* processId < -1 (or < 0 where one is required) */
    ACCEL_E_ANE_MSG_SIZE = -414,         /* maxCmdBufSize >= hdr + size, or container size */
    ACCEL_E_ANE_OUTPUT_SETS = -415,      /* nbrOfOutputBufferSets == 1 violated */
    ACCEL_E_ANE_TD_PARTITIONS = -416,    /* 1 == nbrOfTdPartition violated */
    ACCEL_E_ANE_EVENT_MASKS = -417,      /* exactly one event mask violated */
    ACCEL_E_ANE_CUSTOM_BARS = -418,      /* nbrOfCustomBars <= 32 violated */
    ACCEL_E_ANE_BAR_TYPE = -419,         /* bar type GENERIC and config HW_32BIT violated */
    ACCEL_E_ANE_BAR_ID = -420,           /* barId < 32 violated */
    ACCEL_E_ANE_EXEC_ORDER = -421,       /* 0 < nbrOfCustomExecuteOrder <= 128 violated */
    ACCEL_E_ANE_EXEC_ORDER_OFFSET = -422,/* callSize <= offset, offset + 4n <= container */
    ACCEL_E_ANE_SIGNAL_EVENTS = -423,    /* 0 < nbrOfSignalEvents <= 16 violated */
    ACCEL_E_ANE_NO_EVENTS = -424,        /* nbrOfWaitEvents + nbrOfSignalEvents > 0 violated */
    ACCEL_E_ANE_SUBNET_ORDER = -425,     /* 0 == bSubNetworkCustomExecuteOrder violated */
    ACCEL_E_ANE_SHARED_EVENTS = -426,    /* sharedEventsActiveNbr < 2 violated */
    ACCEL_E_ANE_VARIANT = -427,          /* field set that belongs to another call variant */
    ACCEL_E_ANE_STATS = -428,            /* stats buffer/size: both 0, or size >= 0x4c */
    ACCEL_E_ANE_INPUT_BUFFERS = -429,    /* nbrOfInputBuffers <= 16 violated */
    ACCEL_E_ANE_REQUESTS_IN_LIST = -430, /* 1 == nbrOfAneRequestInList violated */
    ACCEL_E_ANE_CHAIN_BUF = -431,        /* chained buffer: OutputBuffer type, set id < sets */
    ACCEL_E_ANE_CHAIN_ADDR = -432,       /* chained buffer address above 4 GiB */
    ACCEL_E_ANE_BUF_COUNT = -433,        /* bufNbr == 1 + numIoBuffers violated */
    ACCEL_E_ANE_PREMAP = -434,           /* premap: one op, one buffer, non-zero addr/size */
    ACCEL_E_ANE_REG_VALUE = -435,        /* property write with regValue 0 */
    ACCEL_E_ANE_RPC_LENGTH = -436,       /* back-channel payload > 0x800000 */
    ACCEL_E_ANE_RPC_MAGIC = -437,        /* back-channel magic != 0x55aa55aa */
    ACCEL_E_ANE_FORCE_DISABLE = -438,    /* force-disable admitted only when set true */
    ACCEL_E_ANE_TQ_RANGE = -439,         /* reset range not 1 <= first <= last <= 255 */
    ACCEL_E_ANE_INVARIANT = -440,        /* event in PAUSE: a firmware invariant (panic) */
    ACCEL_E_ANE_NOT_RUNNING = -441,      /* call to a process that is not running: dropped */
    ACCEL_E_ANE_HANDLE = -442,           /* cache handle unknown or in the wrong state: dropped */
    ACCEL_E_ANE_TIMESTAMP = -443,        /* trigger timestamp not strictly increasing */
    ACCEL_E_ANE_CR_DISABLED = -444,      /* cache requests force-disabled */
    ACCEL_E_ANE_NOT_READY = -445,        /* channel not ready (recovery in progress) */
    ACCEL_E_ANE_HANDSHAKE = -446,        /* bring-up handshake out of order or wrong magic */
    ACCEL_E_ANE_STATS_MAGIC = -447,      /* statistics header magic is not 0x0101 */

    /* mac: -500 .. -599 */
    ACCEL_E_MAC_DTYPE = -500, /* not ACCEL_MAC_INT8 or ACCEL_MAC_UINT8 */
    ACCEL_E_MAC_ROUNDING = -501, /* unknown rounding mode */
    ACCEL_E_MAC_SHIFT = -502, /* shift outside -31..+31 (single rounding: -31..+30) */
    ACCEL_E_MAC_MULTIPLIER = -503, /* negative quantized multiplier */
    ACCEL_E_MAC_OFFSET = -504, /* input/filter/output offset (zero point) out of the type's range */
    ACCEL_E_MAC_ACTIVATION = -505, /* activation clamp outside the type's range or min > max */
    ACCEL_E_MAC_CHANNELS = -506, /* multiplier/shift/bias arrays shorter than the output channels */
    ACCEL_E_MAC_SHAPE = -507, /* a dimension, stride, dilation or pad too large, or n not a multiple of the element size */
    ACCEL_E_MAC_STRIDE = -508, /* stride of 0 */
    ACCEL_E_MAC_GROUPS = -509, /* channels do not match groups / depth multiplier / pool rules */
    ACCEL_E_MAC_EMPTY_WINDOW = -510, /* an average/max pool window holds no in-image tap */
    ACCEL_E_MAC_DEPTH = -511, /* accumulation depth above the exact int32 limit of the byte-plane products */

    /* tflite: -600 .. -699 */
    ACCEL_E_TFLITE_VERSION = -600,      /* schema version is not 3 */
    ACCEL_E_TFLITE_SUBGRAPH = -601,     /* no subgraph, or one without tensors, operators or outputs */
    ACCEL_E_TFLITE_TENSOR_INDEX = -602, /* a graph or operator tensor index out of range */
    ACCEL_E_TFLITE_SHAPE = -603,        /* a negative or overflowing shape, or shapes an operator cannot take */
    ACCEL_E_TFLITE_TYPE = -604,         /* unknown tensor type, or types of an operator that do not match */
    ACCEL_E_TFLITE_BUFFER = -605,       /* buffer index out of range, or data size is not the tensor's */
    ACCEL_E_TFLITE_QUANT = -606,        /* quantization: scale/zero point counts, ranges, axis, or missing */
    ACCEL_E_TFLITE_OPCODE = -607,       /* opcode index out of range, or builtin code fields inconsistent */
    ACCEL_E_TFLITE_OPTIONS = -608,      /* options table of the wrong type, or a value out of range */
    ACCEL_E_TFLITE_GRAPH = -609,        /* a tensor read before written, written twice, or a constant written */
    ACCEL_E_TFLITE_ARITY = -610,        /* an operator lacks a required input or output */

    ACCEL_STATUS_MIN_ = -700 /* lower bound of all codes; not a status */
} accel_status;

/* Name of a status code ("ACCEL_E_TIMEOUT: ..."); "" with ACCEL_NO_STATUS_STRINGS, "?" for a
 * value that is not a code. Never NULL. */
ACCELDEF const char *accel_status_str(accel_status s);

/* ---- @common.bytes: unchecked loads/stores for buffers whose size the caller has checked ---- */
ACCELDEF uint16_t accel_load_u16le(const uint8_t *p);
ACCELDEF uint16_t accel_load_u16be(const uint8_t *p);
ACCELDEF uint32_t accel_load_u32le(const uint8_t *p);
ACCELDEF uint32_t accel_load_u32be(const uint8_t *p);
ACCELDEF uint64_t accel_load_u64le(const uint8_t *p);
ACCELDEF uint64_t accel_load_u64be(const uint8_t *p);
ACCELDEF void accel_store_u16le(uint8_t *p, uint16_t v);
ACCELDEF void accel_store_u16be(uint8_t *p, uint16_t v);
ACCELDEF void accel_store_u32le(uint8_t *p, uint32_t v);
ACCELDEF void accel_store_u32be(uint8_t *p, uint32_t v);
ACCELDEF void accel_store_u64le(uint8_t *p, uint64_t v);
ACCELDEF void accel_store_u64be(uint8_t *p, uint64_t v);

/* ---- @common.reader: bounds-checked reader over a caller buffer ----
 * Every read either succeeds completely or returns an error and leaves *out and the position
 * untouched. The first error is sticky (kept in .err, later reads fail with it), so a parser may
 * read a whole record and check once. */
typedef struct accel_reader {
    const uint8_t *buf;
    size_t len;
    size_t pos;
    accel_status err;
} accel_reader;

ACCELDEF ACCEL_NODISCARD accel_status accel_reader_init(accel_reader *r, const void *buf, size_t len);
ACCELDEF size_t accel_reader_remaining(const accel_reader *r);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u8(accel_reader *r, uint8_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u16le(accel_reader *r, uint16_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u16be(accel_reader *r, uint16_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u32le(accel_reader *r, uint32_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u32be(accel_reader *r, uint32_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u64le(accel_reader *r, uint64_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_u64be(accel_reader *r, uint64_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_read_bytes(accel_reader *r, void *dst, size_t n);
/* Point *out at the next n bytes inside the buffer (no copy) and advance. */
ACCELDEF ACCEL_NODISCARD accel_status accel_read_view(accel_reader *r, const uint8_t **out, size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_reader_skip(accel_reader *r, size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_reader_seek(accel_reader *r, size_t pos);

/* ---- @common.writer: bounds-checked writer over a caller buffer (same rules as the reader) ---- */
typedef struct accel_writer {
    uint8_t *buf;
    size_t cap;
    size_t pos;
    accel_status err;
} accel_writer;

ACCELDEF ACCEL_NODISCARD accel_status accel_writer_init(accel_writer *w, void *buf, size_t cap);
ACCELDEF size_t accel_writer_remaining(const accel_writer *w);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u8(accel_writer *w, uint8_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u16le(accel_writer *w, uint16_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u16be(accel_writer *w, uint16_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u32le(accel_writer *w, uint32_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u32be(accel_writer *w, uint32_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u64le(accel_writer *w, uint64_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_u64be(accel_writer *w, uint64_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_bytes(accel_writer *w, const void *src, size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_write_fill(accel_writer *w, uint8_t v, size_t n);

/* ---- @common.crc32: CRC-32/ISO-HDLC (zlib, Ethernet): reflected poly 0xEDB88320, init/xorout 0xFFFFFFFF ----
 * crc = accel_crc32_update(0, data, n) gives the final CRC of data; feeding pieces in order,
 * crc = accel_crc32_update(crc, piece, k), gives the same value (zlib's crc32() convention).
 * accel_crc32("123456789", 9) == 0xCBF43926. data may be NULL only when n is 0. */
ACCELDEF uint32_t accel_crc32_update(uint32_t crc, const void *data, size_t n);
ACCELDEF uint32_t accel_crc32(const void *data, size_t n);

/* ---- @common.ring: ring of fixed-size slots over a caller buffer ----
 * capacity = buf_len / slot_size slots. push copies a slot in, pop copies the oldest out.
 * A full ring refuses a push (ACCEL_E_FULL) and keeps what it holds: nothing is overwritten. */
typedef struct accel_ring {
    uint8_t *buf;
    size_t slot_size;
    size_t cap;   /* slots */
    size_t head;  /* index of the oldest slot */
    size_t count; /* slots in use */
} accel_ring;

ACCELDEF ACCEL_NODISCARD accel_status accel_ring_init(accel_ring *r, void *buf, size_t buf_len, size_t slot_size);
ACCELDEF ACCEL_NODISCARD accel_status accel_ring_push(accel_ring *r, const void *slot);
ACCELDEF ACCEL_NODISCARD accel_status accel_ring_peek(const accel_ring *r, void *slot_out);
ACCELDEF ACCEL_NODISCARD accel_status accel_ring_pop(accel_ring *r, void *slot_out); /* slot_out may be NULL */
/* Pointer to the i-th oldest slot (0 = oldest), or NULL when i >= count. Valid until the next
 * push or pop. */
ACCELDEF void *accel_ring_at(const accel_ring *r, size_t i);
ACCELDEF size_t accel_ring_count(const accel_ring *r);
ACCELDEF size_t accel_ring_capacity(const accel_ring *r);
ACCELDEF int accel_ring_full(const accel_ring *r);
ACCELDEF int accel_ring_empty(const accel_ring *r);
ACCELDEF void accel_ring_clear(accel_ring *r);

/* ---- @common.fifo: byte FIFO over a caller buffer ----
 * accel_fifo_write is all-or-nothing: when n bytes do not fit it stores none and returns
 * ACCEL_E_FULL, so a caller never loses the tail of a message silently. */
typedef struct accel_fifo {
    uint8_t *buf;
    size_t cap;
    size_t head;
    size_t count;
} accel_fifo;

ACCELDEF ACCEL_NODISCARD accel_status accel_fifo_init(accel_fifo *f, void *buf, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_fifo_write(accel_fifo *f, const void *data, size_t n);
/* Take up to max bytes; *got says how many (ACCEL_E_EMPTY when none). */
ACCELDEF ACCEL_NODISCARD accel_status accel_fifo_read(accel_fifo *f, void *dst, size_t max, size_t *got);
/* Copy n bytes starting offset bytes past the oldest, without taking them. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fifo_peek(const accel_fifo *f, size_t offset, void *dst, size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_fifo_discard(accel_fifo *f, size_t n);
ACCELDEF size_t accel_fifo_count(const accel_fifo *f);
ACCELDEF size_t accel_fifo_space(const accel_fifo *f);
ACCELDEF void accel_fifo_clear(accel_fifo *f);

/* ---- @common.deadline: deadlines on a 32-bit monotonic millisecond clock (wrap-safe: correct across the
 * 49.7-day wrap as long as one wait is shorter than 2^31 ms) ---- */
typedef struct accel_deadline {
    uint32_t start_ms;
    uint32_t timeout_ms;
} accel_deadline;

ACCELDEF void accel_deadline_start(accel_deadline *d, uint32_t now_ms, uint32_t timeout_ms);
ACCELDEF int accel_deadline_expired(const accel_deadline *d, uint32_t now_ms);
/* Milliseconds left (0 once expired). */
ACCELDEF uint32_t accel_deadline_remaining(const accel_deadline *d, uint32_t now_ms);
/* a - b as a signed distance on the wrapping clock: > 0 when a is later than b. */
ACCELDEF int32_t accel_time_diff(uint32_t a, uint32_t b);

/* ---- @common.port: the port interface ----
 * One struct of callbacks plus a user pointer. A port fills in what its platform has and
 * leaves the rest NULL; drivers call through the accel_port_* wrappers below, which return
 * ACCEL_E_UNSUPPORTED for a NULL callback and ACCEL_E_NULL for a NULL port. Callbacks return
 * ACCEL_OK or an accel_status (ACCEL_E_TIMEOUT, ACCEL_E_IO, ACCEL_E_NO_DEVICE, ...); a port
 * that wraps an OS keeps the OS's own code for the caller in its own struct (ports/linux:
 * last_errno, last_usb_error). A timeout_ms of 0 means "the shortest wait the port can do",
 * never "forever" (libusb's 0 would block: ports pass 1 ms there). */

/* accel_port.spi_transfer flags */
#define ACCEL_SPI_KEEP_CS 0x1u /* leave chip select asserted after this transfer (the next
                                  transfer continues the same transaction). A transfer that
                                  fails releases chip select whatever its flags: a port must
                                  not leave a device mid-transaction after an error.
                                  A transfer of len 0 with flags 0 ends the transaction an
                                  earlier KEEP_CS transfer on cs left open: chip select goes
                                  high, nothing is clocked (tx and rx may be NULL). With no
                                  transaction open it does nothing and returns ACCEL_OK. For a
                                  caller that learns only afterwards that a transaction is
                                  over (a bridge, a replay). len 0 with KEEP_CS is
                                  ACCEL_E_ZERO_LENGTH. */

/* USB bmRequestType values the drivers use (standard encoding). */
#define ACCEL_USB_DIR_IN 0x80u
#define ACCEL_USB_TYPE_VENDOR 0x40u
#define ACCEL_USB_TYPE_CLASS 0x20u
#define ACCEL_USB_RECIP_DEVICE 0x00u
#define ACCEL_USB_RECIP_INTERFACE 0x01u

typedef struct accel_port {
    void *user; /* passed back to every callback */

    /* Full-duplex SPI: clock len bytes out of tx (NULL: send 0x00) while reading into rx
     * (NULL: discard), with chip select cs asserted. len 0 (flags 0): end a transaction held
     * open by ACCEL_SPI_KEEP_CS, or do nothing when none is open. */
    accel_status (*spi_transfer)(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                 size_t len, unsigned flags);
    /* I2C: write wlen bytes then (repeated start) read rlen bytes from 7-bit address addr.
     * Either length may be 0. */
    accel_status (*i2c_write_read)(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                   uint8_t *r, size_t rlen);
    /* USB control transfer on endpoint 0. Direction from bit 7 of request_type; data is
     * read (OUT) or filled (IN). *done = bytes actually transferred. */
    accel_status (*usb_control)(void *user, uint8_t request_type, uint8_t request,
                                uint16_t value, uint16_t index, uint8_t *data, uint16_t length,
                                uint32_t timeout_ms, size_t *done);
    /* USB bulk OUT on endpoint ep (bit 7 clear). A zero-length packet is len 0. */
    accel_status (*usb_bulk_out)(void *user, uint8_t ep, const uint8_t *data, size_t len,
                                 uint32_t timeout_ms, size_t *done);
    /* USB bulk or interrupt IN on endpoint ep (bit 7 set): read up to len bytes. */
    accel_status (*usb_bulk_in)(void *user, uint8_t ep, uint8_t *data, size_t len,
                                uint32_t timeout_ms, size_t *done);
    /* Device registers (memory-mapped, or over a bus: the port decides). offset is a byte
     * offset into the device's register space. */
    accel_status (*reg_read32)(void *user, uint32_t offset, uint32_t *value);
    accel_status (*reg_write32)(void *user, uint32_t offset, uint32_t value);
    accel_status (*reg_read64)(void *user, uint32_t offset, uint64_t *value);
    accel_status (*reg_write64)(void *user, uint32_t offset, uint64_t value);
    /* Drive GPIO line (a port-defined number) to level 0 or 1. */
    accel_status (*gpio_set)(void *user, unsigned line, unsigned level);
    /* Wait until interrupt line `line` is asserted or timeout_ms passes (ACCEL_E_TIMEOUT).
     * timeout_ms 0 polls once. Level semantics: returns at once while it is asserted. */
    accel_status (*wait_irq)(void *user, unsigned line, uint32_t timeout_ms);
    /* Monotonic milliseconds (any origin, wraps at 2^32). */
    uint32_t (*now_ms)(void *user);
    /* Sleep (or advance simulated time) for ms milliseconds. */
    void (*delay_ms)(void *user, uint32_t ms);
} accel_port;

/* Checked calls: ACCEL_E_NULL for a NULL port or a NULL buffer with a non-zero length,
 * ACCEL_E_UNSUPPORTED when the port lacks the callback. accel_port_spi_transfer with len 0
 * and flags 0 ends a held transaction (see ACCEL_SPI_KEEP_CS); len 0 with flags is
 * ACCEL_E_ZERO_LENGTH. */
ACCELDEF ACCEL_NODISCARD accel_status accel_port_spi_transfer(const accel_port *p, uint8_t cs, const uint8_t *tx,
                                              uint8_t *rx, size_t len, unsigned flags);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_i2c_write_read(const accel_port *p, uint16_t addr,
                                                const uint8_t *w, size_t wlen, uint8_t *r,
                                                size_t rlen);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_usb_control(const accel_port *p, uint8_t request_type,
                                             uint8_t request, uint16_t value, uint16_t index,
                                             uint8_t *data, uint16_t length, uint32_t timeout_ms,
                                             size_t *done);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_usb_bulk_out(const accel_port *p, uint8_t ep,
                                              const uint8_t *data, size_t len,
                                              uint32_t timeout_ms, size_t *done);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_usb_bulk_in(const accel_port *p, uint8_t ep, uint8_t *data,
                                             size_t len, uint32_t timeout_ms, size_t *done);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_reg_read32(const accel_port *p, uint32_t offset, uint32_t *v);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_reg_write32(const accel_port *p, uint32_t offset, uint32_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_reg_read64(const accel_port *p, uint32_t offset, uint64_t *v);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_reg_write64(const accel_port *p, uint32_t offset, uint64_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_gpio_set(const accel_port *p, unsigned line, unsigned level);
ACCELDEF ACCEL_NODISCARD accel_status accel_port_wait_irq(const accel_port *p, unsigned line, uint32_t timeout_ms);
/* now_ms: ACCEL_E_UNSUPPORTED without a clock (then *now is 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_port_now_ms(const accel_port *p, uint32_t *now);
/* delay: without a delay callback, busy-waits on now_ms; without either, ACCEL_E_UNSUPPORTED. */
ACCELDEF ACCEL_NODISCARD accel_status accel_port_delay_ms(const accel_port *p, uint32_t ms);
/* Read-modify-write: value = (value & ~clear) | set. A failed read writes nothing. */
ACCELDEF ACCEL_NODISCARD accel_status accel_port_update32(const accel_port *p, uint32_t offset, uint32_t clear,
                                          uint32_t set);
/* Poll a 32-bit register until (value & mask) == want or timeout_ms passes; polls every
 * poll_ms (0: as fast as the port answers). *last (may be NULL) gets the last value read. */
ACCELDEF ACCEL_NODISCARD accel_status accel_port_poll32(const accel_port *p, uint32_t offset, uint32_t mask,
                                        uint32_t want, uint32_t timeout_ms, uint32_t poll_ms,
                                        uint32_t *last);

#if !defined(ACCEL_NO_EDGETPU) || !defined(ACCEL_NO_TFLITE)
/* ---- @common.fb: bounds-checked FlatBuffers reader (the edgetpu and tflite sections) ----
 * Reads a flatbuffer in place. Every offset is checked against the buffer before use, vtables
 * and tables must lie wholly inside it, a field must lie inside its table, strings must be
 * NUL-terminated, vector lengths are bounded by the bytes that remain; every check is written
 * as "fits in what is left", so no addition wraps. Any violation is ACCEL_E_MALFORMED. Field i
 * is the schema's field number (0-based); an absent field is not an error. Views point into
 * the caller's buffer, which must outlive them. */
typedef struct accel_fb_view {
    const uint8_t *p; /* NULL when absent */
    size_t len;
} accel_fb_view;

/* A table inside one flatbuffer (fields are internal; exposed so tables can live on the stack). */
typedef struct accel_fb_table {
    const uint8_t *buf;
    size_t len, pos, vt;
    uint16_t vtlen, tlen;
} accel_fb_table;

/* The root table (the uoffset at byte 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_root(accel_fb_table *t, const uint8_t *buf, size_t len);
/* The table that starts at byte pos (its vtable checked). */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_table_at(accel_fb_table *t, const uint8_t *buf, size_t len,
                                                        size_t pos);
/* Byte position of field i, whose value is `size` bytes; *at = 0 when absent. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_field(const accel_fb_table *t, unsigned i, unsigned size,
                                                     size_t *at);
/* Unsigned little-endian scalar of size 1, 2, 4 or 8 bytes; def when absent. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_scalar(const accel_fb_table *t, unsigned i, unsigned size,
                                                      uint64_t def, uint64_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_i32(const accel_fb_table *t, unsigned i, int32_t def,
                                                   int32_t *out);
/* 16-bit signed scalar, 0 when absent. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_i16(const accel_fb_table *t, unsigned i, int *out);
/* Target of a uoffset field; *pos = 0 when absent. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_ref(const accel_fb_table *t, unsigned i, size_t *pos);
/* Vector field: *pos = its first element, *n = its length, each element esize bytes (all
 * inside the buffer); 0/0 when absent. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_vector(const accel_fb_table *t, unsigned i, size_t esize,
                                                      size_t *pos, uint32_t *n);
/* [ubyte] field as a view (p NULL when absent). */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_bytes(const accel_fb_table *t, unsigned i, accel_fb_view *v);
/* string field: its bytes without the NUL, which must be there (p NULL when absent). */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_string(const accel_fb_table *t, unsigned i, accel_fb_view *v);
/* Target of element k of a vector of offsets that starts at byte vec (k below its length). */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_elem(const uint8_t *buf, size_t len, size_t vec, uint32_t k,
                                                    size_t *target);
/* Sub-table field; *present 0 when absent. */
ACCELDEF ACCEL_NODISCARD accel_status accel_fb_subtable(const accel_fb_table *t, unsigned i,
                                                        accel_fb_table *sub, int *present);
#endif

#ifdef __cplusplus
}
#endif

/* ============================================================================================
 * SECTION: tsp1 (declarations) @tsp1
 * ============================================================================================ */
#ifndef ACCEL_NO_TSP1
#ifdef __cplusplus
extern "C" {
#endif
/* tsp1: Applied Brain Research TSP1 message layer (command and response frames in FIFO buffers 0
 * and 1 of the chip's register/buffer interface).
 * Layers: (1) wire: frame encoder, streaming frame decoder, response parsers;
 * (2) bus: registers and FIFO buffers through one transfer function, accel_tsp1_xfer();
 * (3) driver: accel_tsp1 session (TIDs, pending table, error-state mirroring, async messages,
 * flows: boot, reboot, sleep/wake, NN info/start/stop/pause/finish, secure update);
 * (4) device model: accel_tsp1_model, the device side, served on ports/sim, with a record of
 * what it did with every command (the ground truth tests check the driver against).
 * ASSUMPTIONS: what the public documentation does not settle, each behind one macro:
 *   ACCEL_TSP1_BIG_ENDIAN       0 (default): multi-byte frame fields (preamble, id, N_BYTES, TID,
 *                               CRC, NN mask) are little-endian, so a command starts CC 55 and a
 *                               response 55 CC; 1: big-endian (55 CC / CC 55). Byte 0 of the
 *                               NN_INFO payload is the slot index either way.
 *   ACCEL_TSP1_CMD_PREAMBLE / ACCEL_TSP1_RSP_PREAMBLE   0x55CC / 0xCC55 (as documented).
 *   ACCEL_TSP1_CRC(p, n)        frame CRC; default accel_crc32, CRC-32/ISO-HDLC (the zlib CRC),
 *                               over bytes 0..7+n.
 *   ACCEL_TSP1_SPI_OP_REG_READ/_REG_WRITE/_BUF_READ/_BUF_WRITE, ACCEL_TSP1_SPI_DUMMY
 *                               the SPI transaction format, which is not public: see "bus".
 *   ACCEL_TSP1_XFER_CUSTOM      define it and write accel_tsp1_xfer() yourself for another
 *                               transaction format (declared below; the driver only calls that).
 *   ACCEL_TSP1_I2C              0 (default): SPI only, as the chip is today; bus.i2c set gives
 *                               ACCEL_E_UNSUPPORTED. 1: compile an INVENTED I2C format (the SPI
 *                               bytes without the dummy; writes carry at most
 *                               ACCEL_TSP1_I2C_MAX_WRITE bytes, default 64, so a secure update is
 *                               refused before its first chunk).
 *   ACCEL_TSP1_REG_BUF_STATUS(i), ACCEL_TSP1_REG_BUF_CTRL(i), ACCEL_TSP1_REG_IRQ_STATUS,
 *   ACCEL_TSP1_REG_IRQ_MASK, ACCEL_TSP1_REG_FW_VERSION
 *                               register map: the vendor names the registers, the bit layout and
 *                               the firmware-version register (0 while the ROM bootloader runs)
 *                               are assumed (see "bus").
 *   ACCEL_TSP1_READ_CHUNK       bytes the driver reads from the response buffer per
 *                               transaction (stack buffer; default 64).
 *   ACCEL_TSP1_NO_MODEL         leave the device model out (MCU builds).
 *   ACCEL_TSP1_MARKER           1 (default): a command that answers nothing is followed, in the
 *                               same transaction, by an empty ECHO (its marker), and the marker's
 *                               answer proves the command ran. THE ONE ASSUMPTION THE DRIVER
 *                               CANNOT CHECK: this holds only if the device also puts its queue
 *                               into the error state when it rejects a frame (ERR_FRAMING,
 *                               ERR_CHECKSUM), as the documentation says for commands that fail.
 *                               A device that rejected the command's frame and then ran the
 *                               marker would have every such command reported ACCEL_OK although
 *                               it never ran (an NN_START, a SECURE_UPDATE chunk lost to one bad
 *                               bit). 0: no marker; such commands end ACCEL_E_TSP1_UNKNOWN_OUTCOME
 *                               unless the device answers them with an error.
 *   ACCEL_TSP1_IN_PLACE         1: the decoder checks a frame that arrives whole (nothing held
 *                               before it) where it lies in the fed data, with no copy (the
 *                               frame's payload then points into that data), and appends to a
 *                               held candidate that cannot complete yet without re-checking
 *                               it. Default 1, 0 in size-optimised builds (__OPTIMIZE_SIZE__:
 *                               about 200 bytes less on Cortex-M0+). Either way a caller
 *                               handles a frame before it changes the data it fed.
 * Other assumptions: NN_STATUS (0x0080 in the overview) and NN_INFO are one command answered by
 * an 8-byte NN_INFO (0x8001); the NN mask is 4 bytes, bit i = network i; "SECURE_UPDATE_DONE" is
 * SECURE_UPDATE_FINISH; error payloads and the 16-byte chunk header are opaque bytes; there is no
 * 0x9005, and an id the documentation does not list is surfaced, never dropped. */

/* ---- @tsp1.wire: frames ----
 * PREAMBLE(2) ID(2) N_BYTES(2) TID(2) PAYLOAD(n) CRC32(4) over bytes 0..7+n. */
#ifndef ACCEL_TSP1_BIG_ENDIAN
#define ACCEL_TSP1_BIG_ENDIAN 0
#endif
#ifndef ACCEL_TSP1_MARKER
#define ACCEL_TSP1_MARKER 1
#endif
#ifndef ACCEL_TSP1_IN_PLACE
#ifdef __OPTIMIZE_SIZE__
#define ACCEL_TSP1_IN_PLACE 0
#else
#define ACCEL_TSP1_IN_PLACE 1
#endif
#endif
#ifndef ACCEL_TSP1_CMD_PREAMBLE
#define ACCEL_TSP1_CMD_PREAMBLE 0x55CCu
#endif
#ifndef ACCEL_TSP1_RSP_PREAMBLE
#define ACCEL_TSP1_RSP_PREAMBLE 0xCC55u
#endif
#define ACCEL_TSP1_HDR_SIZE 8u
#define ACCEL_TSP1_OVERHEAD 12u        /* header + CRC */
#define ACCEL_TSP1_CHUNK_SIZE 144u     /* NVM image chunk: 16 header + 128 payload bytes */
#define ACCEL_TSP1_MAX_NETS 32u
#define ACCEL_TSP1_TID_NONE 0xFFFFu    /* never allocated by the driver; the model tags errors
                                          for bytes without a readable header with it */

/* command ids (0x0080 is NN_STATUS in the overview and NN_INFO in its section: one command) */
#define ACCEL_TSP1_ECHO 0x0010u
#define ACCEL_TSP1_SECURE_UPDATE 0x0021u
#define ACCEL_TSP1_SECURE_UPDATE_CANCEL 0x0022u
#define ACCEL_TSP1_SECURE_UPDATE_FINISH 0x0023u
#define ACCEL_TSP1_REBOOT 0x0050u
#define ACCEL_TSP1_DEEP_SLEEP 0x0060u
#define ACCEL_TSP1_NN_INFO 0x0080u
#define ACCEL_TSP1_NN_STATUS ACCEL_TSP1_NN_INFO
#define ACCEL_TSP1_NN_START 0x0081u
#define ACCEL_TSP1_NN_STOP 0x0082u
#define ACCEL_TSP1_NN_PAUSE 0x0083u
#define ACCEL_TSP1_NN_FINISH 0x0084u
#define ACCEL_TSP1_CLEAR_ERROR 0x7FFFu
/* response ids */
#define ACCEL_TSP1_R_DATA 0x8000u
#define ACCEL_TSP1_R_NN_INFO 0x8001u
#define ACCEL_TSP1_R_ERR_ARG 0x9000u
#define ACCEL_TSP1_R_ERR_BUSY 0x9001u
#define ACCEL_TSP1_R_ERR_LEN 0x9002u
#define ACCEL_TSP1_R_ERR_MEM 0x9003u
#define ACCEL_TSP1_R_ERR_CRYPT 0x9004u
#define ACCEL_TSP1_R_ERR_CHECKSUM 0x9006u
#define ACCEL_TSP1_R_ERR_FRAMING 0x9007u
#define ACCEL_TSP1_R_ASYNC_READY 0xA001u
#define ACCEL_TSP1_R_ASYNC_ERR_ECC 0xA002u
#define ACCEL_TSP1_R_ASYNC_ERR_NPU 0xA003u

typedef enum accel_tsp1_kind {
    ACCEL_TSP1_KIND_UNKNOWN = 0, /* id not documented (e.g. 0x9005): surfaced, never dropped */
    ACCEL_TSP1_KIND_DATA,
    ACCEL_TSP1_KIND_NN_INFO,
    ACCEL_TSP1_KIND_ERROR,       /* ERR_*: payload opaque */
    ACCEL_TSP1_KIND_ASYNC
} accel_tsp1_kind;

/* A decoded frame. payload points into the decoder's buffer, or (ACCEL_TSP1_IN_PLACE) for a
 * frame that arrived whole in one feed with nothing held before it, into the data given to that
 * feed: valid until the next call on the decoder and while that data is unchanged. */
typedef struct accel_tsp1_frame {
    uint16_t id;
    uint16_t n_bytes;
    uint16_t tid;
    const uint8_t *payload;
} accel_tsp1_frame;

typedef enum accel_tsp1_nn_state {
    ACCEL_TSP1_NN_STOPPED = 0,
    ACCEL_TSP1_NN_RUNNING = 1,
    ACCEL_TSP1_NN_PAUSED = 2,
    ACCEL_TSP1_NN_FINISHED = 3
} accel_tsp1_nn_state;

typedef struct accel_tsp1_nn_info {
    uint8_t valid, idx, n_total, n_in, n_out, buf_in0, buf_out0;
    accel_tsp1_nn_state state;
} accel_tsp1_nn_info;

/* Encode any frame (preamble = ACCEL_TSP1_CMD_PREAMBLE or ACCEL_TSP1_RSP_PREAMBLE). payload may
 * be buf + 8 (already in place). *out_len = 12 + n. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_encode_raw_frame(uint16_t preamble, uint16_t id, uint16_t tid,
                                                   const void *payload, size_t n, uint8_t *buf,
                                                   size_t cap, size_t *out_len);
/* Payload rule of a command id: ACCEL_E_ARG for an undocumented id, ACCEL_E_TOO_LONG /
 * ACCEL_E_TRUNCATED / ACCEL_E_ALIGN (SECURE_UPDATE not k x 144) for a wrong length. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_check_cmd(uint16_t id, size_t n);
/* Encode a command after accel_tsp1_check_cmd. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_encode_command(uint16_t id, uint16_t tid, const void *payload,
                                                 size_t n, uint8_t *buf, size_t cap, size_t *out_len);
/* Commands whose payload is one 32-bit value: NN_INFO (slot index; bytes 1-3 reserved 0) and
 * NN_START/STOP/PAUSE/FINISH (network mask, bit i = network i). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_encode_command_u32(uint16_t id, uint16_t tid, uint32_t value,
                                                     uint8_t *buf, size_t cap, size_t *out_len);
ACCELDEF accel_tsp1_kind accel_tsp1_kind_of(uint16_t id);
/* ERR_* id -> ACCEL_E_TSP1_ERR_*; ACCEL_E_MALFORMED for anything else. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_error_status(uint16_t id);
/* NN_INFO response -> struct: ACCEL_E_ARG if not NN_INFO, ACCEL_E_MALFORMED unless exactly 8
 * bytes with VALID 0/1 and STATE 0..3. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_decode_nn_info(const accel_tsp1_frame *f,
                                               accel_tsp1_nn_info *out);

/* ---- @tsp1.decoder: streaming decoder ----
 * Feed bytes in any chunking; it hunts for the preamble, checks N_BYTES against its buffer
 * (one maximal frame: cap = 12 + largest payload accepted) and the CRC, and on any failure
 * drops the first byte of the candidate and re-scans the bytes it holds for the next preamble.
 * Every discarded byte is counted under one reason. */
#define ACCEL_TSP1_DROP_GARBAGE 0   /* bytes before a preamble */
#define ACCEL_TSP1_DROP_LENGTH 1    /* candidate whose N_BYTES exceeds the buffer */
#define ACCEL_TSP1_DROP_CRC 2       /* candidate whose CRC failed (includes a truncated frame
                                       followed by another frame: it fails its CRC) */
#define ACCEL_TSP1_DROP_TRUNCATED 3 /* partial frame given up by accel_tsp1_decoder_idle or
                                       dropped by accel_tsp1_decoder_reset */
#define ACCEL_TSP1_DROP_REASONS 4

typedef struct accel_tsp1_decoder {
    uint8_t *buf;
    size_t cap, len, emitted;
    uint16_t preamble;
    uint32_t frames;
    uint32_t dropped[ACCEL_TSP1_DROP_REASONS];
} accel_tsp1_decoder;

ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_decoder_init(accel_tsp1_decoder *d, void *buf, size_t cap,
                                              uint16_t preamble);
/* Consume bytes until a frame completes: ACCEL_OK with *f filled (*used = bytes taken; feed
 * the rest next), or ACCEL_E_EMPTY when all n bytes were taken without completing one. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_decoder_feed(accel_tsp1_decoder *d, const void *data, size_t n,
                                              size_t *used, accel_tsp1_frame *f);
/* The device has nothing more to send (its response buffer is empty, and it places whole frames
 * there): a held candidate can never complete, as when a flipped N_BYTES claims more bytes than
 * the frame has. Give it up (its first byte and any garbage up to the next preamble count as
 * truncated) and rescan the rest. Call until ACCEL_E_EMPTY: ACCEL_OK returns a frame found among
 * the held bytes (payload valid until the next call on d). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_decoder_idle(accel_tsp1_decoder *d, accel_tsp1_frame *f);
/* The stream ended (buffer cleared, reboot): a held partial frame is counted as truncated. */
ACCELDEF void accel_tsp1_decoder_reset(accel_tsp1_decoder *d);

/* ---- @tsp1.bus: registers and FIFO buffers ----
 * Vendor pages: 256 32-bit registers; 0x00-0x0F fixed information, 0x1E IRQ status, 0x1F IRQ
 * mask (bit i: buffer i drives INTB, active low), 0x20-0x5F buffer status/control; 32 FIFO
 * buffers, 0 = command queue, 1 = response queue. ASSUMED (not public): each buffer i has a
 * STATUS register at 0x20 + 2i (bits 15:0 fill level in bytes, bits 31:16 free space in bytes)
 * and a CTRL register at 0x21 + 2i (bits 15:0 IRQ threshold in bytes); the response buffer
 * asserts INTB while fill >= threshold, the command buffer while fill <= threshold; register
 * 0x00 holds the running firmware's version, 0 while the ROM bootloader runs.
 * ASSUMED SPI transaction, one chip-select frame per access, all in accel_tsp1_xfer():
 *   register write: OP_REG_WRITE, reg, value (4 bytes LE)
 *   register read:  OP_REG_READ, reg, DUMMY bytes, value (4 bytes LE) clocked in
 *   buffer write:   OP_BUF_WRITE, index, data...   (one whole command or more: atomic)
 *   buffer read:    OP_BUF_READ, index, DUMMY bytes, data... (reads past the fill level give 0)
 * With ACCEL_TSP1_I2C and bus.i2c: the same bytes without the dummy, as one I2C write, or a write
 * of the two header bytes and a read (an invented format: the chip speaks SPI only today). */
#ifndef ACCEL_TSP1_SPI_OP_REG_READ
#define ACCEL_TSP1_SPI_OP_REG_READ 0x01u
#endif
#ifndef ACCEL_TSP1_SPI_OP_REG_WRITE
#define ACCEL_TSP1_SPI_OP_REG_WRITE 0x02u
#endif
#ifndef ACCEL_TSP1_SPI_OP_BUF_READ
#define ACCEL_TSP1_SPI_OP_BUF_READ 0x03u
#endif
#ifndef ACCEL_TSP1_SPI_OP_BUF_WRITE
#define ACCEL_TSP1_SPI_OP_BUF_WRITE 0x04u
#endif
#ifndef ACCEL_TSP1_SPI_DUMMY
#define ACCEL_TSP1_SPI_DUMMY 1u
#endif
#ifndef ACCEL_TSP1_I2C
#define ACCEL_TSP1_I2C 0
#endif
#ifndef ACCEL_TSP1_I2C_MAX_WRITE
#define ACCEL_TSP1_I2C_MAX_WRITE 64u
#endif
#ifndef ACCEL_TSP1_REG_FW_VERSION
#define ACCEL_TSP1_REG_FW_VERSION 0x00u
#endif
#ifndef ACCEL_TSP1_REG_IRQ_STATUS
#define ACCEL_TSP1_REG_IRQ_STATUS 0x1Eu
#endif
#ifndef ACCEL_TSP1_REG_IRQ_MASK
#define ACCEL_TSP1_REG_IRQ_MASK 0x1Fu
#endif
#ifndef ACCEL_TSP1_REG_BUF_STATUS
#define ACCEL_TSP1_REG_BUF_STATUS(i) (0x20u + 2u * (unsigned)(i))
#endif
#ifndef ACCEL_TSP1_REG_BUF_CTRL
#define ACCEL_TSP1_REG_BUF_CTRL(i) (0x21u + 2u * (unsigned)(i))
#endif
#define ACCEL_TSP1_BUF_CMD 0u
#define ACCEL_TSP1_BUF_RSP 1u

typedef struct accel_tsp1_bus {
    const accel_port *port;
    uint8_t i2c;       /* 0: SPI (chip select `addr`); 1: I2C (7-bit address `addr`), only with
                          ACCEL_TSP1_I2C (else every transfer is ACCEL_E_UNSUPPORTED) */
    uint8_t addr;
    uint8_t intb_line; /* wait_irq line of TSP1_INTB */
    uint8_t wake_line; /* gpio line of TSP1_WAKE */
} accel_tsp1_bus;

/* One register or buffer access in the transaction format (the only function that knows it):
 * op is ACCEL_TSP1_SPI_OP_REG_READ/_REG_WRITE/_BUF_READ/_BUF_WRITE, addr the register or buffer
 * index; a write sends n bytes from tx, a read fills n bytes of rx. All n bytes of a write go in
 * one transaction (the device takes a command only whole). Return ACCEL_E_UNSUPPORTED only when
 * nothing reached the bus: any other failure of a write may have delivered part of it.
 * With ACCEL_TSP1_XFER_CUSTOM, accel.h leaves it to you to define. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_xfer(const accel_tsp1_bus *b, uint8_t op, uint8_t addr,
                                      const uint8_t *tx, uint8_t *rx, size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_reg_read(const accel_tsp1_bus *b, uint8_t reg, uint32_t *v);
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_reg_write(const accel_tsp1_bus *b, uint8_t reg, uint32_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_buf_write(const accel_tsp1_bus *b, uint8_t idx, const void *d,
                                           size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_buf_read(const accel_tsp1_bus *b, uint8_t idx, void *d, size_t n);
/* Fill level and free space of buffer idx (either pointer may be NULL). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_buf_level(const accel_tsp1_bus *b, uint8_t idx, uint16_t *fill,
                                           uint16_t *space);
/* IRQ mask (bit i: buffer i drives INTB) and the command / response buffer thresholds. A reboot
 * or wake resets them to: mask = response buffer only, thresholds cmd 0 / rsp 1. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_irq_config(const accel_tsp1_bus *b, uint32_t mask,
                                            uint16_t cmd_thr, uint16_t rsp_thr);
/* WAKE: rising edge (1 then 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_wake_pulse(const accel_tsp1_bus *b);

/* ---- @tsp1.driver: a session over caller memory ----
 * Every command submit accepts ends in exactly one outcome, reported once through on_outcome,
 * and only what the driver can prove:
 *   ACCEL_OK          it ran: its own answer arrived (DATA, NN_INFO), or for a command that
 *                     answers nothing, the DATA of the ECHO marker the driver sends right behind
 *                     it, with the same TID, in the same transaction (the device runs the marker
 *                     only after the command arrived whole and ran without error; such a
 *                     command never answers DATA itself, and an empty ECHO has no error of its
 *                     own); REBOOT: ASYNC_READY arrived; DEEP_SLEEP: ASYNC_READY arrived after
 *                     accel_tsp1_wake's pulse.
 *   ACCEL_E_TSP1_ERR_ARG/_BUSY/_LEN/_MEM/_CRYPT   the device's error response carried its TID.
 *   ACCEL_E_TSP1_DISCARDED   it did not run: sent after a command that failed with one of those
 *                     errors and before the next CLEAR_ERROR, so the device, in its error state,
 *                     discarded it (or it never arrived; either way it did not run).
 *   ACCEL_E_TSP1_UNKNOWN_OUTCOME   the driver cannot know: no evidence arrived before its
 *                     deadline, or later evidence shows its own can never come (a later command's
 *                     answer, a reboot that cleared the buffers), or the device reported
 *                     ERR_CHECKSUM / ERR_FRAMING (their TID comes from a damaged header, so it
 *                     names no command with certainty; resp is that response).
 *   ACCEL_E_TSP1_UNEXPECTED  an answer with its TID but an id it never answers with.
 * REBOOT and DEEP_SLEEP clear the device's buffers: while one is pending, submit holds new
 * commands (ACCEL_E_BUSY until ASYNC_READY, ACCEL_E_TSP1_ASLEEP until accel_tsp1_wake).
 * ASYNC_READY names no command, so it confirms a REBOOT or DEEP_SLEEP only if no other can be
 * on its way: the session is "settled" once a command sent after every earlier REBOOT or
 * DEEP_SLEEP is confirmed (or one of them ended OK); until then (after open, after one of them
 * ended UNKNOWN_OUTCOME) they end UNKNOWN_OUTCOME. Assumed: after a boot the device places
 * ASYNC_READY before any answer. After an error response or a deadline the device may be
 * discarding everything until CLEAR_ERROR: with auto_clear the driver sends it (a refused one
 * is tried again on every poll for as long as it takes; once timeout_ms has passed, poll also
 * returns ACCEL_E_TSP1_ERROR_STATE while it still fails), otherwise submit returns
 * ACCEL_E_TSP1_ERROR_STATE until accel_tsp1_clear_error(). Async messages go to on_async, or
 * without it to a host-side queue coalesced per type (accel_tsp1_async_take); their TIDs are
 * checked: gaps (device-side coalescing, or a message lost on the bus) and non-monotonic TIDs
 * are counted.
 * A session proves which answers are its own before it matches any: the device may still hold
 * an earlier session's commands and answers (a host program killed or restarted, an MCU reset
 * while the TSP1 stayed powered). The first submit waits (ACCEL_E_BUSY; poll reads what is
 * waiting) until the device's command buffer is empty and no answer is left to read, then sends
 * CLEAR_ERROR with a marker ECHO that carries a 4-byte session nonce, in one transaction, ahead
 * of the command; every answer before that ECHO's (same TID, same bytes) is stale: counted in
 * `stale`, never matched. If it gets no answer in time the next submit sends another. TIDs
 * start at a value drawn from config.nonce, are taken only when a command is written (a refused
 * submit takes none) and never one still pending. A DATA answer must carry the bytes sent (a
 * 16-bit check): an ECHO's payload, a marker's nonce or nothing. If the decoder has to drop a
 * byte (a CRC or length failure, bytes before a preamble) while an ECHO of 12 bytes or more may
 * still be answered, nothing is matched until the response buffer has been read empty: a frame
 * found by rescanning may lie inside that ECHO's payload (an ECHO of captured frames). */
typedef struct accel_tsp1_pending {
    uint16_t tid, id;
    uint32_t sent_ms;
    uint8_t flags;    /* private */
    uint16_t check;   /* private: check of the DATA that answers it */
} accel_tsp1_pending;

typedef struct accel_tsp1_outcome {
    uint16_t tid, cmd;
    accel_status status;
    const accel_tsp1_frame *resp; /* the response that decided it (the command's answer or
                                     error, its marker's DATA), or NULL */
} accel_tsp1_outcome;

typedef struct accel_tsp1_config {
    accel_tsp1_bus bus;
    /* Caller memory, one block the driver splits: accel_tsp1_driver_mem_size(depth,
       cmd_payload, rsp_payload, &bytes) bytes. depth: commands pending at once, at least 2 (one
       entry is kept for the driver's own CLEAR_ERROR; the session's first command also takes
       one for its synchronising ECHO); cmd_payload / rsp_payload: the largest command payload
       sent and response payload expected (at least 4; an ECHO's answer must fit: larger ones
       are refused). */
    void *mem;
    size_t mem_len;
    uint16_t depth, cmd_payload, rsp_payload;
    uint32_t nonce;      /* anything that differs between sessions (a boot counter, a random
                            number): it picks the first TID and the bytes of the session's
                            synchronising ECHO. 0 is allowed: the session then starts only once
                            the device holds no earlier command and no unread answer, which
                            alone keeps earlier answers out unless a register read is damaged */
#ifndef ACCEL_NO_DEPRECATED
    /* deprecated (until 0.2.0), used when mem is NULL: the three regions given apart */
    void *pending_mem; /* depth = pending_len / sizeof(accel_tsp1_pending) */
    size_t pending_len;
    void *rx_mem;      /* response decoder: 12 + largest response payload, at least 16 */
    size_t rx_len;
    void *tx_mem;      /* command encoder: 24 + largest command payload (12 for the frame, 12
                          for the marker behind a command that answers nothing) */
    size_t tx_len;
#endif
    uint32_t timeout_ms; /* per command; 0 = 1000 */
    uint8_t auto_clear;  /* 1: send CLEAR_ERROR as soon as the device may be in its error state */
    void (*on_outcome)(void *user, const accel_tsp1_outcome *o);
    void (*on_async)(void *user, const accel_tsp1_frame *f); /* ASYNC_*, undocumented ids,
                                              answers to nothing pending */
    void *user;
} accel_tsp1_config;

typedef struct accel_tsp1 {
    /* ordered for small load/store offsets on Thumb-1: bytes, then halfwords, then words */
    accel_tsp1_bus bus;
    uint8_t auto_clear, dev_error, ready, asleep, scanned, have_async, w_done, rom;
    uint8_t settled; /* no ASYNC_READY can be outstanding (see accel__tsp1_on_frame) */
    uint8_t synced;  /* this session's synchronising ECHO came back: answers are its own */
    uint8_t lost;    /* the decoder dropped bytes: match nothing until the buffer reads empty */
    uint8_t big;     /* an ECHO that can carry whole frames may still be answered (big_tid) */
    uint16_t next_tid, last_async, big_tid;
    uint16_t w_tid; /* the command a blocking call waits for */
    uint16_t aq_tid[4], aq_n[4], aq_id[4]; /* host async queue: READY, ECC, NPU, unknown */
    accel_status w_st;
    uint8_t *tx;
    size_t tx_cap;
    uint32_t timeout_ms, clear_ms; /* clear_ms: when the device may have entered its error state */
    uint32_t known_mask, running_mask;
    uint32_t async_gaps, async_nonmono, stray, outcomes;
    uint32_t stale;  /* answers ignored: before the session's synchronising ECHO, or while lost */
    uint32_t nonce, drops; /* drops: the decoder's dropped[] total last seen */
    void (*on_outcome)(void *user, const accel_tsp1_outcome *o);
    void (*on_async)(void *user, const accel_tsp1_frame *f);
    void *user;
    uint8_t *w_buf;
    size_t w_cap, w_len;
    accel_ring pend;
    accel_tsp1_decoder dec;
} accel_tsp1;

/* Bytes of caller memory (config.mem) for depth pending commands and the largest command and
 * response payloads; ACCEL_E_ARG for a depth under 2, a response payload under 4 (the session's
 * synchronising answer) or anything over 0xFFFF. ACCEL_TSP1_DRIVER_MEM gives the same number
 * as a constant expression, for a static array. */
#define ACCEL_TSP1_DRIVER_MEM(depth, cmd_payload, rsp_payload)                                 \
    (3u + (size_t)(depth) * sizeof(accel_tsp1_pending) + (size_t)(3u * ACCEL_TSP1_OVERHEAD) +   \
     (size_t)(cmd_payload) + (size_t)(rsp_payload))
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_driver_mem_size(size_t depth, size_t cmd_payload,
                                                 size_t rsp_payload, size_t *bytes);
/* The port needs now_ms (deadlines): ACCEL_E_UNSUPPORTED without it. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_init(accel_tsp1 *s, const accel_tsp1_config *cfg);
/* Queue one command (payload rules checked; payload may be s->tx + 8). *tid may be NULL.
 * ACCEL_OK: pending, its outcome will follow (also when the write transaction itself failed: it
 * may have reached the device, so it ends UNKNOWN_OUTCOME at the next poll unless confirmed).
 * Refused with nothing sent: ACCEL_E_FULL (pending table full), ACCEL_E_BUSY (no room in the
 * device's command buffer yet, a REBOOT awaits ASYNC_READY, or the session is not synchronised
 * and the device still holds commands), ACCEL_E_TSP1_ASLEEP, ACCEL_E_TSP1_ERROR_STATE, a bus
 * error reading the buffer level, a payload error, ACCEL_E_BUFFER_TOO_SMALL for an ECHO whose
 * answer would not fit the receive buffer. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_submit(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                        uint16_t *tid);
/* Read responses and report outcomes and async messages, then time out old commands (an
 * answer already waiting counts, however late the poll), then send a needed CLEAR_ERROR; when
 * the response buffer is empty, a decoder candidate still waiting for bytes is given up and its
 * bytes rescanned (accel_tsp1_decoder_idle). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_poll(accel_tsp1 *s);
/* Send CLEAR_ERROR (with its marker). It is the driver's own, also through submit: no outcome is
 * reported for it. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_clear_error(accel_tsp1 *s);
/* Blocking: submit and wait up to timeout_ms for this command's outcome (returned). A response
 * payload is copied to resp (may be NULL), *resp_len its length. On ACCEL_E_TIMEOUT here the
 * command stays pending and still gets its one outcome through on_outcome later. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_call(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                      void *resp, size_t resp_cap, size_t *resp_len,
                                      uint32_t timeout_ms);
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_wait_ready(accel_tsp1 *s, uint32_t timeout_ms);
/* Start the session the safe way now, rather than with its first command: wait (up to
 * timeout_ms, polling) until the device holds no earlier session's command, send CLEAR_ERROR
 * with the synchronising ECHO, and wait for its answer. ACCEL_OK once synchronised (at once if
 * it already is); ACCEL_E_TIMEOUT otherwise (a device asleep or rebooting takes nothing). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_sync(accel_tsp1 *s, uint32_t timeout_ms);
/* CLEAR_ERROR (waiting until it is sent and its answer is in or overdue), then REBOOT; waits for
 * ASYNC_READY (OK also when the REBOOT's own outcome is
 * UNKNOWN_OUTCOME: the device booted). ACCEL_E_TSP1_ROM when it came up in its ROM bootloader
 * (s->rom = 1): no valid firmware image, as after an unfinished secure update. Register reads
 * carry no CRC: the firmware-version register is read until three reads in a row agree on a
 * value other than all ones (at most 6 reads, else ACCEL_E_IO). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_reboot(accel_tsp1 *s, uint32_t timeout_ms);
/* DEEP_SLEEP once nothing is pending (else ACCEL_E_BUSY); returns when the device has taken it
 * from its command buffer (or timeout_ms). Its outcome comes with accel_tsp1_wake. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_sleep(accel_tsp1 *s, uint32_t timeout_ms);
/* WAKE pulse, then ASYNC_READY. Without it in time the pending DEEP_SLEEP ends UNKNOWN_OUTCOME
 * (it may never have run, or the ASYNC_READY was lost) and the session stops holding commands.
 * A DEEP_SLEEP that ended UNKNOWN_OUTCOME otherwise (an error response naming no command) may
 * still have put the device to sleep: submit says ACCEL_E_TSP1_ASLEEP until this is called. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_wake(accel_tsp1 *s, uint32_t timeout_ms);
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_nn_query(accel_tsp1 *s, uint8_t idx, accel_tsp1_nn_info *info,
                                         uint32_t timeout_ms);
/* Query slots from 0 until VALID is 0 (valid slots are contiguous): sets known/running masks. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_nn_scan(accel_tsp1 *s, uint8_t *count, uint32_t timeout_ms);
/* NN_START/STOP/PAUSE/FINISH; after a scan, ACCEL_E_TSP1_MASK for bits outside known slots. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_nn_control(accel_tsp1 *s, uint16_t id, uint32_t mask,
                                            uint32_t timeout_ms);
/* Oldest queued async message (ACCEL_E_EMPTY if none); *coalesced = how many of that type
 * arrived since the last take (1 = just this one). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_async_take(accel_tsp1 *s, uint16_t *id, uint16_t *tid,
                                            uint16_t *coalesced);

/* Secure update: streams total bytes (k x 144) from read() in SECURE_UPDATE commands of
 * `chunks` x 144 bytes (0: as many as the tx buffer and the device's command buffer hold), then
 * FINISH, then accel_tsp1_reboot. position is where to start: 0 begins with
 * SECURE_UPDATE_CANCEL (so nothing of an earlier attempt is kept); anything else resumes an
 * update the device still has in progress. On failure the status is returned and position is
 * where a resume must start: unchanged by a command the device refused (ERR_ARG, ERR_BUSY,
 * ERR_LEN) or that was never sent; the start of the previous command after ERR_MEM (its NVM
 * write failed, as the device reports it one command late); 0 when the device's progress is
 * unknown (an outcome the driver cannot know, ERR_CRYPT). Unless no_cancel, CANCEL is then sent
 * and position is 0. Over the invented I2C format a chunk does not fit one write: refused with
 * ACCEL_E_UNSUPPORTED before anything is sent. */
typedef struct accel_tsp1_update {
    accel_status (*read)(void *user, uint32_t offset, uint8_t *dst, size_t n);
    void (*progress)(void *user, uint32_t done, uint32_t total);
    void *user;
    uint32_t total;
    uint32_t position; /* in: resume offset; out: see above */
    uint16_t chunks;
    uint8_t no_cancel, no_reboot;
} accel_tsp1_update;
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_update_run(accel_tsp1 *s, accel_tsp1_update *u,
                                            uint32_t timeout_ms);

#ifndef ACCEL_TSP1_NO_MODEL
/* ---- @tsp1.model: device model (layer 4): the device side, for ports/sim ----
 * Command queue (cmd_cap bytes) and response queue (rsp_cap bytes) as documented: a write
 * transaction to buffer 0 is split into frames on arrival; a bad piece (no preamble, header cut
 * off, frame cut off by the end of the transaction, frame larger than the queue or not fitting in
 * it) becomes an ERR_FRAMING entry, a CRC mismatch an ERR_CHECKSUM entry, each carrying the TID
 * of its header (ACCEL_TSP1_TID_NONE without one) and taking its place in the queue order.
 * Commands execute exec_per_ms per simulated millisecond, in order, and complete only with 16
 * bytes (or the whole answer) free in the response queue (assumption: room for any error
 * response). After an error response every command but CLEAR_ERROR is discarded; a rejected
 * piece still gets its ERR_FRAMING / ERR_CHECKSUM. Async messages are coalesced per type (last
 * wins: its TID was taken when raised, so the host sees the gap) and emitted as soon as there
 * is room, before command responses.
 * Secure update: the image is a stream of 144-byte chunks; the model accepts a command's chunks
 * in order (NVM write: nvm_ms), reports a failed write (mem_fail_chunk) with the next command or
 * FINISH and then forgets that command's chunks, so a resume starts at that command. FINISH
 * verifies the image with the model's stand-in for the vendor's signature: the CRC-32 of all
 * chunks, in order, must leave the CRC residue 0x2144DF1C (the image ends with the CRC-32,
 * little-endian, of everything before it), so a skipped, repeated or reordered chunk gives
 * ERR_CRYPT. Progress survives a reboot (it is in NVM). A reboot without a valid image (an update
 * started and not finished, or cancelled) comes up in ROM: rom = 1, register 0x00 reads 0, no
 * networks; further updates work there.
 * Spec gaps filled (documented assumptions): an unknown command id gets ERR_ARG; FINISH with no
 * update in progress gets ERR_CRYPT; SECURE_UPDATE with 0 bytes is a no-op; DEEP_SLEEP keeps the
 * queues unreadable and clears them on wake like a reboot; NN_PAUSE/FINISH affect running
 * networks only.
 * Ground truth: on_log hears every fate (accel_tsp1_model_event): a command that ran and what it
 * answered, one discarded in the error state, a piece rejected as framing/checksum (its header's
 * TID, which may be damaged), a queued command or an unread response cleared by a reboot or wake,
 * a write ignored (booting, asleep, or not to buffer 0), an async message emitted. */
#define ACCEL_TSP1_MODEL_SLACK 48u /* queue room for error entries beyond cmd_cap */

#define ACCEL_TSP1_MODEL_RAN 1        /* ran; resp = its response id, 0 for none */
#define ACCEL_TSP1_MODEL_DISCARDED 2  /* discarded in the error state */
#define ACCEL_TSP1_MODEL_REJECTED 3   /* framing/checksum piece; resp = its error (also in the
                                         error state: the spec says a partial command produces an
                                         error); id 0 */
#define ACCEL_TSP1_MODEL_WIPED 4      /* still queued when the device rebooted or woke (id 0 for a
                                         rejected piece) */
#define ACCEL_TSP1_MODEL_RSP_WIPED 5  /* a response (id, tid) the host had not read, cleared */
#define ACCEL_TSP1_MODEL_IGNORED 6    /* a write transaction that was not taken (tid, id 0) */
#define ACCEL_TSP1_MODEL_ASYNC 7      /* an async message placed in the response queue */
typedef struct accel_tsp1_model_event {
    uint8_t what; /* ACCEL_TSP1_MODEL_RAN ... */
    uint16_t tid, id, resp;
} accel_tsp1_model_event;

typedef struct accel_tsp1_model {
    accel_fifo cmdq, rspq;
    uint8_t *stage, *work; /* current write transaction; the command being executed */
    uint16_t cmd_cap, rsp_cap;
    size_t stage_len;
    uint8_t xop, xaddr;
    size_t xpos;
    uint8_t xval[4];
    size_t rsp_left;          /* bytes of the head response not read yet (0: at a boundary) */
    uint16_t rsp_tid, rsp_id; /* the head response's TID and id */
    uint32_t irq_mask;
    uint16_t thr[2];
    uint8_t error_state;
    uint8_t power; /* ACCEL_TSP1_MODEL_OFF/BOOTING/READY/ASLEEP */
    uint8_t rom;   /* running the ROM bootloader (no valid image) */
    uint32_t timer;
    uint8_t n_nets, state[ACCEL_TSP1_MAX_NETS];
    /* secure update */
    uint8_t upd_active, upd_done, mem_err, fw_valid;
    uint32_t upd_pos, upd_crc, prev_pos, prev_crc, nvm_busy;
    /* async */
    uint8_t apend;        /* bit i: message 0xA001 + i waiting */
    uint16_t atid[3], async_next;
    /* configuration (set after init; defaults in brackets) */
    uint8_t exec_per_ms;  /* [2] */
    uint32_t boot_ms;     /* [5] */
    uint32_t nvm_ms;      /* [2] per SECURE_UPDATE command */
    uint32_t mem_fail_chunk, arg_fail_chunk; /* 1-based chunk (by image position) whose NVM
                                                write / header fails, once; 0: none */
    uint8_t crypt_fail;   /* FINISH answers ERR_CRYPT */
    uint32_t fw_version;  /* [1] register 0x00 outside ROM, +1 per completed update */
    uint8_t wake_line;
    void (*on_log)(void *user, const accel_tsp1_model_event *e);
    void *user;
    /* statistics */
    uint32_t executed, discarded, errors, async_raised, async_emitted, async_coalesced;
    uint32_t lost_entries, ignored_xfers;
} accel_tsp1_model;
#define ACCEL_TSP1_MODEL_OFF 0
#define ACCEL_TSP1_MODEL_BOOTING 1
#define ACCEL_TSP1_MODEL_READY 2
#define ACCEL_TSP1_MODEL_ASLEEP 3

/* Bytes of caller memory the model needs for the given queue sizes (3 x cmd_cap +
 * ACCEL_TSP1_MODEL_SLACK + rsp_cap): ACCEL_E_ARG for sizes accel_tsp1_model_init refuses,
 * ACCEL_E_OVERFLOW where size_t cannot hold the sum (16-bit targets); *bytes is 0 then. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_model_mem_size(uint16_t cmd_cap, uint16_t rsp_cap,
                                                 size_t *bytes);
/* Power-on: the model boots (boot_ms) and then says ASYNC_READY. n_nets valid slots. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_model_init(accel_tsp1_model *m, void *mem, size_t mem_len,
                                            uint16_t cmd_cap, uint16_t rsp_cap, uint8_t n_nets);
/* Raise an async message (0xA001..0xA003) as the firmware would. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tsp1_model_raise(accel_tsp1_model *m, uint16_t id);
ACCELDEF void accel_tsp1_model_advance(accel_tsp1_model *m, uint32_t ms);
/* Fill the model's side of the port (spi_transfer, i2c_write_read with ACCEL_TSP1_I2C, gpio_set,
 * wait_irq, delay_ms) for accel_sim_attach. */
ACCELDEF void accel_tsp1_model_port(accel_tsp1_model *m, accel_port *p);
#endif
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_TSP1 */

/* ============================================================================================
 * SECTION: edgetpu (declarations) @edgetpu
 * ============================================================================================ */
#ifndef ACCEL_NO_EDGETPU
#ifdef __cplusplus
extern "C" {
#endif
/* edgetpu - Google Coral Edge TPU (Beagle) over USB, without libedgetpu.
 * Layers: wire (128-bit bundles, FlatBuffers model reader, USB header/event/interrupt records,
 * DFU status), protocol (USB transfer ordering, CSR control requests, bring-up sequences as
 * data), driver (DMA-hint walk, parameter caching, DFU download), device model (ports/sim).
 *   Instructions: 128-bit bundles, 16 little-endian bytes; decode/encode of the 20 fields
 *   (bit positions from edgetpuxray's decompiler: bit 0 = bit 0 of byte 0), a disassembler,
 *   a program builder (start/halt/NOPs/end marker as edgetpu_compiler lays them out) and
 *   field-offset patching of a 32-bit value at any bit offset (libedgetpu's CopyUint32).
 *   Models: *_edgetpu.tflite -> edgetpu-custom-op (FlexBuffer key "4") -> DWN1 package ->
 *   MultiExecutable -> executables, every field validated before use.
 * ASSUMPTIONS (Google publishes no hardware documentation; sources are libedgetpu, Google's
 * open-source runtime, and public reverse-engineering write-ups of the ISA):
 *   - Where a write-up and libedgetpu disagree, libedgetpu wins: it is what runs on real
 *     devices (USB transfer order, CSR offsets, the scu_ctrl_3 field positions below).
 *   - Instruction field positions are the reverse-engineered ones (no vendor table exists); the
 *     disassembler prints raw field values, never guessed mnemonics for unknown fields.
 *   - Executables beyond ACCEL_EDGETPU_MAX_EXECUTABLES per package are refused, not truncated.
 *   - TFLite operator codes follow TFLite's schema (QUANTIZE 114, HARD_SWISH 117; codes above 127
 *     only in builtin_code, the deprecated byte holds min(code, 127)).
 *   - The device model replays libedgetpu's register script and answers with synthetic data:
 *     it checks the host's protocol, not the numerical results.
 * Config macros:
 *   ACCEL_EDGETPU_NO_DISASM       drop the disassembler and field-name table (MCU builds)
 *   ACCEL_EDGETPU_NO_MODEL     drop the simulated device (CSR file, USB and DFU models)
 *   ACCEL_EDGETPU_MAX_EXECUTABLES executables a package may hold (default 16)
 *   ACCEL_EDGETPU_MAX_CACHED      packages whose parameters the driver tracks as cached (4)
 *   ACCEL_EDGETPU_MODEL_REGS, ACCEL_EDGETPU_MODEL_SCRIPT  device-model register / script slots */

/* ---- @edgetpu.insn: 128-bit instruction bundles, program builder, disassembler ---- */
#define ACCEL_EDGETPU_INSN_BYTES 16u

/* Field indices, most significant first (the order of the reverse-engineered field table and
 * of `disasm --tsv`). */
enum {
    ACCEL_EDGETPU_F_UNK_3 = 0,     /* bits 127..110 (18) */
    ACCEL_EDGETPU_F_VS_REG_W,      /* 109..105 (5) */
    ACCEL_EDGETPU_F_V_OP_2,        /* 104..102 (3) */
    ACCEL_EDGETPU_F_IMM_SCALAR,    /* 101..70 (32) */
    ACCEL_EDGETPU_F_S_Y,           /* 69..65 (5) */
    ACCEL_EDGETPU_F_S_X,           /* 64..60 (5) */
    ACCEL_EDGETPU_F_S_OP,          /* 59..54 (6) */
    ACCEL_EDGETPU_F_VS_REG,        /* 53..49 (5) */
    ACCEL_EDGETPU_F_V_CMD,         /* 48..44 (5) */
    ACCEL_EDGETPU_F_V_OFFSET,      /* 43..36 (8) */
    ACCEL_EDGETPU_F_V_OP,          /* 35..31 (5) */
    ACCEL_EDGETPU_F_IMM_SIZE,      /* 30..19 (12) */
    ACCEL_EDGETPU_F_VS_REG_V1,     /* 18..14 (5) */
    ACCEL_EDGETPU_F_ENABLE_VECTOR, /* 13..12 (2) */
    ACCEL_EDGETPU_F_ENABLE_SCALAR, /* 11 (1) */
    ACCEL_EDGETPU_F_BRANCH,        /* 10..6 (5) */
    ACCEL_EDGETPU_F_UNK_0,         /* 5 (1) */
    ACCEL_EDGETPU_F_YES_PRED,      /* 4 (1) */
    ACCEL_EDGETPU_F_PRED_REG,      /* 3..1 (3) */
    ACCEL_EDGETPU_F_GATE,          /* 0 (1) */
    ACCEL_EDGETPU_NFIELDS
};

/* Branch-field values whose meaning is known. */
#define ACCEL_EDGETPU_BR_HALT 0x01u
#define ACCEL_EDGETPU_BR_START 0x1Eu
#define ACCEL_EDGETPU_BR_END 0x1Fu
/* s_op bit 5: immediate operand instead of register s[imm_scalar & 31]. */
#define ACCEL_EDGETPU_SOP_IMM 0x20u

/* One decoded bundle: f[ACCEL_EDGETPU_F_x]. */
typedef struct accel_edgetpu_insn {
    uint32_t f[ACCEL_EDGETPU_NFIELDS];
} accel_edgetpu_insn;

/* Bit position of a field's least significant bit and its width (0/0 for a bad index). */
ACCELDEF unsigned accel_edgetpu_field_lsb(unsigned field);
ACCELDEF unsigned accel_edgetpu_field_width(unsigned field);
/* Decode 16 bytes (every bit pattern is valid). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_decode_insn(const uint8_t bytes[16], accel_edgetpu_insn *out);
/* Encode; ACCEL_E_ARG when a field value does not fit its width (out untouched). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_encode_insn(const accel_edgetpu_insn *in, uint8_t out[16]);
/* Read / write a bit range (width 1..32) of a bitstream; bit k = bit k%8 of byte k/8. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_bits_get(const uint8_t *buf, size_t len, uint32_t lsb,
                                             unsigned width, uint32_t *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_bits_set(uint8_t *buf, size_t len, uint32_t lsb,
                                             unsigned width, uint32_t value);
/* Field-offset patching: the 32-bit value at bit offset offset_bit (ACCEL_E_ARG when it does
 * not lie wholly inside len bytes). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_patch32(uint8_t *bitstream, size_t len, uint32_t offset_bit,
                                            uint32_t value);

/* Program builder. A compiled program is: START (branch 0x1E; v_offset:v_op:imm_size, bits
 * 19..43, = length in bits of everything between START and END), body, HALT (branch 1, vs_reg_v1 4), four scalar
 * NOPs, END (branch 0x1F, imm_size 0x80). Writes (body_count + 7) * 16 bytes. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_prog_build(const uint8_t *body, size_t body_count,
                                               uint8_t *out, size_t cap, size_t *out_len);
/* Program length in bits stored in a START bundle (ACCEL_E_MALFORMED if not a START). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_prog_length(const uint8_t start[16], uint32_t *bits);

#ifndef ACCEL_EDGETPU_NO_DISASM
/* "unk_3", "vs_reg_w", ... ("?" for a bad index). */
ACCELDEF const char *accel_edgetpu_field_name(unsigned field);
/* One readable NUL-terminated line for a bundle at byte offset `offset` (no newline):
 *   "0x06b0 S  @p4   s30 = s31 OR 0x21bf7f  | v_op=0x1f v_cmd=0x1d ..."
 * unit flags (S scalar, V<n> vector), predication (@pN / @!pN), branch kind, scalar op with
 * operands, then every other non-zero field. ACCEL_E_BUFFER_TOO_SMALL when cap is too small
 * (128 bytes always suffice: ACCEL_EDGETPU_DISASM_MAX). */
#define ACCEL_EDGETPU_DISASM_MAX 256u
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_disasm(const uint8_t bytes[16], uint32_t offset, char *out,
                                           size_t cap, size_t *out_len);
#endif

/* ---- @edgetpu.package: compiled models: *_edgetpu.tflite -> edgetpu-custom-op -> DarwiNN package ----
 * The package is read with the common FlatBuffers reader (@common.fb) plus a FlexBuffers lookup
 * with the same bounds rules; the walk follows the fixed schema (bounded depth, no recursion),
 * so no input can make it loop or read outside the buffer.
 * accel_edgetpu_package_init_tflite validates the whole package (every executable, bitstream,
 * field offset, hint and layer, and their cross references); the accessors then only index. Views
 * (accel_edgetpu_view) point into the caller's model buffer, which must outlive them. */

/* The common FlatBuffers reader's types under this section's names. */
typedef accel_fb_view accel_edgetpu_view;
typedef accel_fb_table accel_edgetpu_fbt;

/* ExecutableType */
#define ACCEL_EDGETPU_STAND_ALONE 0
#define ACCEL_EDGETPU_PARAMETER_CACHING 1
#define ACCEL_EDGETPU_EXECUTION_ONLY 2
/* Description (FieldOffset / DmaDescriptorHint meta) */
#define ACCEL_EDGETPU_DESC_OUTPUT 0
#define ACCEL_EDGETPU_DESC_INPUT 1
#define ACCEL_EDGETPU_DESC_PARAMETER 2
#define ACCEL_EDGETPU_DESC_SCRATCH 3
/* Position */
#define ACCEL_EDGETPU_LOWER_32BIT 0
#define ACCEL_EDGETPU_UPPER_32BIT 1
/* DMA hint kinds (AnyHint union type) and directions */
#define ACCEL_EDGETPU_HINT_DMA 1
#define ACCEL_EDGETPU_HINT_INSTRUCTION 2
#define ACCEL_EDGETPU_HINT_INTERRUPT 3
#define ACCEL_EDGETPU_HINT_FENCE 4
#define ACCEL_EDGETPU_INFEED 0
#define ACCEL_EDGETPU_OUTFEED 1
/* DataType values needing the signed conversion on the wire */
#define ACCEL_EDGETPU_SIGNED_FIXED_POINT8 8
#define ACCEL_EDGETPU_SIGNED_FIXED_POINT16 9
#define ACCEL_EDGETPU_SIGNED_FIXED_POINT32 2

/* Limits (iteration bounds on top of the buffer-size bounds). */
#ifndef ACCEL_EDGETPU_MAX_EXECUTABLES
#define ACCEL_EDGETPU_MAX_EXECUTABLES 16
#endif

typedef struct accel_edgetpu_package {
    accel_edgetpu_view custom_options; /* the op's FlexBuffer */
    accel_edgetpu_view package;        /* the DWN1 Package flatbuffer */
    accel_edgetpu_view multi;          /* its serialized MultiExecutable */
    int32_t min_runtime_version;
    int32_t keypair_version;
    int32_t virtual_chip_id;
    accel_edgetpu_view compiler_version, signature, model_identifier;
    uint32_t n_executables;
    size_t exe_vec_; /* internal: position of serialized_executables in multi */
} accel_edgetpu_package;

typedef struct accel_edgetpu_exe {
    accel_edgetpu_fbt t_; /* internal */
    int32_t version, batch_size, scratch_size_bytes, estimated_cycles;
    int32_t used_narrow_memory_bytes_per_tile;
    int64_t estimated_cycles_64bit;
    int type; /* ACCEL_EDGETPU_STAND_ALONE (the default when absent) .. EXECUTION_ONLY */
    uint64_t parameter_caching_token;
    accel_edgetpu_view name, chip, parameters;
    uint32_t n_bitstreams, n_hints, n_inputs, n_outputs;
    int has_dma_hints, fully_deterministic;
    size_t bs_vec_, hint_vec_, in_vec_, out_vec_; /* internal */
} accel_edgetpu_exe;

typedef struct accel_edgetpu_bitstream {
    accel_edgetpu_view bits; /* whole 16-byte bundles */
    uint32_t n_field_offsets;
    accel_edgetpu_fbt t_;
    size_t fo_vec_;
} accel_edgetpu_bitstream;

typedef struct accel_edgetpu_field_offset {
    int desc;      /* ACCEL_EDGETPU_DESC_* */
    int position;  /* ACCEL_EDGETPU_LOWER_32BIT / UPPER_32BIT */
    int32_t batch;
    accel_edgetpu_view name; /* layer name (input/output), else p NULL */
    uint32_t offset_bit;
} accel_edgetpu_field_offset;

typedef struct accel_edgetpu_hint {
    int kind;      /* ACCEL_EDGETPU_HINT_* */
    int direction; /* ACCEL_EDGETPU_INFEED / OUTFEED */
    /* DMA descriptor hints */
    int desc;
    int32_t batch;
    accel_edgetpu_view name;
    uint32_t offset_in_bytes, size_in_bytes;
    /* instruction hints */
    uint32_t instruction_chunk_index;
    /* interrupt hints */
    int interrupt_type;
} accel_edgetpu_hint;

typedef struct accel_edgetpu_layer {
    accel_edgetpu_view name;
    uint32_t size_bytes;
    int32_t y_dim, x_dim, z_dim;
    int32_t zero_point;
    uint32_t dequantization_factor_bits; /* IEEE-754 binary32 bits (the core has no float) */
    int data_type;
    int32_t execution_count_per_inference;
} accel_edgetpu_layer;

/* Find edgetpu-custom-op in a TFLite flatbuffer and validate its whole DarwiNN package.
 * ACCEL_E_MALFORMED for any bad offset, size or cross reference; ACCEL_E_NO_DEVICE is never
 * returned; ACCEL_E_UNSUPPORTED when the model has no edgetpu-custom-op or uses the old
 * separate parameter-caching key. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_package_init_tflite(accel_edgetpu_package *m,
                                                         const uint8_t *tflite, size_t len);
/* Validate a bare DWN1 package (the custom op's payload). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_package_init(accel_edgetpu_package *m, const uint8_t *pkg,
                                                   size_t len);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_package_executable(const accel_edgetpu_package *m, uint32_t i,
                                                     accel_edgetpu_exe *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_exe_bitstream(const accel_edgetpu_exe *e, uint32_t i,
                                                  accel_edgetpu_bitstream *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_bitstream_field_offset(const accel_edgetpu_bitstream *b,
                                                           uint32_t i,
                                                           accel_edgetpu_field_offset *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_exe_hint(const accel_edgetpu_exe *e, uint32_t i,
                                             accel_edgetpu_hint *out);
/* is_output 0: input_layers, 1: output_layers. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_exe_layer(const accel_edgetpu_exe *e, int is_output,
                                              uint32_t i, accel_edgetpu_layer *out);
/* Index of the executable of a type (ACCEL_E_EMPTY when none). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_package_find(const accel_edgetpu_package *m, int type,
                                               uint32_t *index);

/* ---- @edgetpu.usb_wire: USB wire format (libedgetpu usb_ml_commands.cc) ----
 * Bulk OUT ep 0x01 (single-endpoint firmware): an 8-byte header {u32 length of the whole
 * request, u8 tag & 0xF, 3 zero bytes} sent as its own transfer, then the data in chunks.
 * Bulk IN ep 0x81: output activations. Bulk IN ep 0x82: 16-byte event records {u64 address,
 * u32 length, u8 tag (low 4 bits), 3 bytes}. Interrupt IN ep 0x83: 4-byte records, bit 0 fatal,
 * bits 1..4 top-level interrupts 0..3. CSRs: vendor control requests, bRequest 0 = 64-bit,
 * 1 = 32-bit, wValue = offset bits 15..0, wIndex = offset bits 31..16, data little-endian. */
#define ACCEL_EDGETPU_VID 0x18D1u
#define ACCEL_EDGETPU_PID 0x9302u
#define ACCEL_EDGETPU_DFU_VID 0x1A6Eu
#define ACCEL_EDGETPU_DFU_PID 0x089Au
#define ACCEL_EDGETPU_EP_OUT 0x01u
#define ACCEL_EDGETPU_EP_OUTPUT 0x81u
#define ACCEL_EDGETPU_EP_EVENT 0x82u
#define ACCEL_EDGETPU_EP_IRQ 0x83u
#define ACCEL_EDGETPU_REQ_CSR64 0u
#define ACCEL_EDGETPU_REQ_CSR32 1u
/* descriptor tags */
#define ACCEL_EDGETPU_TAG_INSTRUCTIONS 0u
#define ACCEL_EDGETPU_TAG_INPUT 1u
#define ACCEL_EDGETPU_TAG_PARAMETERS 2u
#define ACCEL_EDGETPU_TAG_OUTPUT 3u
#define ACCEL_EDGETPU_TAG_INTERRUPT0 4u /* .. 7 = interrupt 3 */
#define ACCEL_EDGETPU_HEADER_BYTES 8u
#define ACCEL_EDGETPU_EVENT_BYTES 16u
#define ACCEL_EDGETPU_IRQ_BYTES 4u
#define ACCEL_EDGETPU_DEFAULT_CHUNK 0x100000UL /* libedgetpu: 1 MiB bulk-out transfers */
#define ACCEL_EDGETPU_DEFAULT_TIMEOUT_MS 6000u /* libedgetpu usb_timeout_millis */

/* CSR offsets used by bring-up, close and error reporting (Beagle, USB). */
#define ACCEL_EDGETPU_SCU_CTRL_0 0x1A30CUL
#define ACCEL_EDGETPU_SCU_CTRL_2 0x1A314UL
#define ACCEL_EDGETPU_SCU_CTRL_3 0x1A318UL
#define ACCEL_EDGETPU_SCU_CTR_7 0x1A33CUL
#define ACCEL_EDGETPU_OMC0_00 0x1A000UL
#define ACCEL_EDGETPU_OMC0_D4 0x1A0D4UL
#define ACCEL_EDGETPU_OMC0_D8 0x1A0D8UL
#define ACCEL_EDGETPU_RAMBIST_CTRL_1 0x1A704UL
#define ACCEL_EDGETPU_SLV_ABM_EN 0x1A500UL
#define ACCEL_EDGETPU_MST_ABM_EN 0x1A600UL
#define ACCEL_EDGETPU_SLV_ERR_RESP_ISR_MASK 0x1A558UL
#define ACCEL_EDGETPU_MST_ERR_RESP_ISR_MASK 0x1A658UL
#define ACCEL_EDGETPU_GCBB_CREDIT0 0x1907CUL
#define ACCEL_EDGETPU_SCALAR_RUN_CONTROL 0x44018UL
#define ACCEL_EDGETPU_IDLE_REGISTER 0x4A000UL
#define ACCEL_EDGETPU_TILECONFIG0 0x48788UL
#define ACCEL_EDGETPU_DEEP_SLEEP 0x40020UL
#define ACCEL_EDGETPU_DESCR_EP 0x4C148UL
#define ACCEL_EDGETPU_MULTI_BO_EP 0x4C160UL
#define ACCEL_EDGETPU_OUTFEED_CHUNK_LENGTH 0x4C058UL
#define ACCEL_EDGETPU_FATAL_ERR_INT_CONTROL 0x4C060UL
#define ACCEL_EDGETPU_FATAL_ERR_INT_STATUS 0x4C068UL
#define ACCEL_EDGETPU_TOP_LEVEL_INT_CONTROL(n) (0x4C070UL + 0x10UL * (uint32_t)(n))
#define ACCEL_EDGETPU_TOP_LEVEL_INT_STATUS(n) (0x4C078UL + 0x10UL * (uint32_t)(n))
#define ACCEL_EDGETPU_HIB_ERROR_STATUS 0x486F0UL
#define ACCEL_EDGETPU_HIB_FIRST_ERROR_STATUS 0x48700UL
/* scu_ctrl_3 fields (libedgetpu beagle_csr_helper.h; a public write-up gives other positions,
 * and libedgetpu's are the ones real devices use) */
#define ACCEL_EDGETPU_SCU3_CUR_PWR_STATE_MASK 0x00000300UL  /* 9:8, 0 run, 2 sleep */
#define ACCEL_EDGETPU_SCU3_FORCE_SLEEP_MASK 0x00C00000UL    /* 23:22 */
#define ACCEL_EDGETPU_SCU3_GCB_CLKDIV_MASK 0x30000000UL     /* 29:28 */
#define ACCEL_EDGETPU_SCU3_AXI_CLK_125M 0x40000000UL        /* 30 */
#define ACCEL_EDGETPU_SCU3_8051_CLK_250M 0x80000000UL       /* 31 */

ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_encode_usb_header(uint32_t length, uint8_t tag, uint8_t out[8]);
/* ACCEL_E_MALFORMED when reserved bits (tag high nibble, bytes 5..7) are set. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_decode_usb_header(const uint8_t in[8], uint32_t *length,
                                                  uint8_t *tag);

typedef struct accel_edgetpu_event {
    uint64_t address;
    uint32_t length;
    uint8_t tag; /* 3 output, 4..7 interrupt 0..3 */
} accel_edgetpu_event;
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_decode_event(const uint8_t *in, size_t len,
                                                 accel_edgetpu_event *ev);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_encode_event(const accel_edgetpu_event *ev, uint8_t out[16]);

typedef struct accel_edgetpu_irq {
    uint32_t raw;
    int fatal;          /* bit 0 */
    uint8_t top_level;  /* bits 1..4 -> bit n = top-level interrupt n */
} accel_edgetpu_irq;
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_decode_irq(const uint8_t *in, size_t len,
                                               accel_edgetpu_irq *irq);

/* ---- @edgetpu.usb: USB protocol state and transfers ----
 * Ordering (single bulk-out endpoint): one request = header then exactly `length` data bytes;
 * a new header is refused while the previous request still owes data, and no bulk-out starts
 * while an output read (ep 0x81) is incomplete (ACCEL_E_STATE). A transfer that fails or
 * moves fewer bytes than asked leaves the state showing exactly what is still owed, so nothing
 * is lost silently; accel_edgetpu_usb_abort() forgets it (after a device reset). */
typedef struct accel_edgetpu_usb {
    const accel_port *port;
    uint32_t timeout_ms;  /* per transfer (default 6000) */
    uint32_t max_chunk;   /* bulk-out data chunk limit (default 1 MiB; small on MCUs) */
    uint32_t out_owed;    /* data bytes the open bulk-out request still needs */
    uint32_t in_owed;     /* bytes of the current output read not yet received */
    uint32_t in_len;      /* its total (a failed read resumes with the same buffer and len) */
    uint8_t out_tag;
} accel_edgetpu_usb;

ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_init(accel_edgetpu_usb *u, const accel_port *port,
                                             uint32_t max_chunk);
ACCELDEF void accel_edgetpu_usb_abort(accel_edgetpu_usb *u);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_csr_read32(accel_edgetpu_usb *u, uint32_t offset,
                                               uint32_t *v);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_csr_write32(accel_edgetpu_usb *u, uint32_t offset,
                                                uint32_t v);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_csr_read64(accel_edgetpu_usb *u, uint32_t offset,
                                               uint64_t *v);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_csr_write64(accel_edgetpu_usb *u, uint32_t offset,
                                                uint64_t v);
/* Header of a request of `total` bytes with tag 0..2 (the only tags a host sends). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_begin(accel_edgetpu_usb *u, uint8_t tag, uint32_t total);
/* Next n data bytes of the open request (n <= what it still owes), in max_chunk pieces. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_data(accel_edgetpu_usb *u, const uint8_t *data,
                                             size_t n);
/* begin + data in one call. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_send(accel_edgetpu_usb *u, uint8_t tag,
                                             const uint8_t *data, uint32_t len);
/* Read exactly len output bytes from ep 0x81 (several bulk-ins if the device sends less). After
 * a failure, calling again with the same buffer and len resumes where it stopped. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_read_output(accel_edgetpu_usb *u, uint8_t *buf,
                                                    uint32_t len);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_read_event(accel_edgetpu_usb *u,
                                                   accel_edgetpu_event *ev);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_usb_read_irq(accel_edgetpu_usb *u, accel_edgetpu_irq *irq);

/* ---- @edgetpu.bringup: bring-up as data ----
 * A sequence of steps run by accel_edgetpu_seq_run. Ops: READ (value kept in ctx.last),
 * WRITE value, RMW (read, clear mask, set value, write), POLL until (v & mask) == value or
 * timeout, TEST (flag[flag] = (v & mask) == value). A step with cond k+1 runs only while
 * flag k is clear. Flags: SF_CLOCKS ORs ctx.clock_bits into the set value; SF_CHUNK writes
 * ctx.outfeed_chunk instead of value. */
#define ACCEL_EDGETPU_OP_READ 1u
#define ACCEL_EDGETPU_OP_WRITE 2u
#define ACCEL_EDGETPU_OP_RMW 3u
#define ACCEL_EDGETPU_OP_POLL 4u
#define ACCEL_EDGETPU_OP_TEST 5u
#define ACCEL_EDGETPU_SF_CLOCKS 0x01u
#define ACCEL_EDGETPU_SF_CHUNK 0x02u
#define ACCEL_EDGETPU_SF_HI0 0x04u /* 64-bit TEST/POLL: bits 63..32 must also read 0 */

/* 20 bytes a step: every mask and value of the Beagle sequences fits 32 bits (RMW keeps the
 * upper half of a 64-bit register, WRITE clears it). */
typedef struct accel_edgetpu_step {
    uint8_t op, width, cond, flag, sflags;
    uint16_t timeout_ms;
    uint32_t reg;
    uint32_t mask, value;
} accel_edgetpu_step;

typedef struct accel_edgetpu_seq_ctx {
    uint32_t clock_bits;     /* scu_ctrl_3 clock fields for the performance level */
    uint64_t outfeed_chunk;  /* 0x80 (1 KiB) on USB 3, 0x20 on USB 2 high speed */
    uint64_t last;           /* last value read */
    uint8_t flags;           /* TEST results */
    uint32_t failed_step;    /* index of the step that failed */
} accel_edgetpu_seq_ctx;

/* Performance levels (libedgetpu PerformanceExpectation). */
#define ACCEL_EDGETPU_PERF_LOW 0
#define ACCEL_EDGETPU_PERF_MEDIUM 1
#define ACCEL_EDGETPU_PERF_HIGH 2
#define ACCEL_EDGETPU_PERF_MAX 3
/* scu_ctrl_3 clock bits (gcb divider, AXI 125 MHz, 8051 250 MHz) for a level, over USB. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_clock_bits(int perf, uint32_t *bits);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_seq_run(accel_edgetpu_usb *u, const accel_edgetpu_step *s,
                                            uint32_t n, accel_edgetpu_seq_ctx *ctx);
/* libedgetpu's USB open and close sequences (tables in the implementation). */
ACCELDEF const accel_edgetpu_step *accel_edgetpu_open_steps(uint32_t *n);
ACCELDEF const accel_edgetpu_step *accel_edgetpu_close_steps(uint32_t *n);
/* Run the open sequence for a performance level; usb3 selects the 1 KiB outfeed chunk. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_open(accel_edgetpu_usb *u, int perf, int usb3);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_close(accel_edgetpu_usb *u);

#ifndef ACCEL_EDGETPU_NO_MODEL
/* ---- @edgetpu.model: device model (layer 4): the chip's USB side, for ports/sim ----
 * A CSR file answering vendor control requests (scu_ctrl_3 moves cur_pwr_state with
 * rg_force_sleep, every other register reads back what was written; reset values are chosen so
 * that libedgetpu's read-modify-writes produce the values of init_sequence_libedgetpu_usb.tsv),
 * bulk-out framing with the ordering rules checked, and a script of what the host is expected to
 * send and what the device answers (output bytes on 0x81, events on 0x82, interrupts on 0x83).
 * Output content is synthetic: byte k = (sum of all input bytes received + k) mod 256.
 * ACCEL_EDGETPU_NO_MODEL drops it. */
#ifndef ACCEL_EDGETPU_MODEL_REGS
#define ACCEL_EDGETPU_MODEL_REGS 64
#endif
#ifndef ACCEL_EDGETPU_MODEL_SCRIPT
#define ACCEL_EDGETPU_MODEL_SCRIPT 32
#endif
/* script items */
#define ACCEL_EDGETPU_MODEL_RECV 1u   /* host sends a request (tag, len) */
#define ACCEL_EDGETPU_MODEL_OUTPUT 2u /* device offers len output bytes on 0x81 */
#define ACCEL_EDGETPU_MODEL_EVENT 3u  /* device offers an event with tag on 0x82 */
#define ACCEL_EDGETPU_MODEL_IRQ 4u    /* device offers an interrupt record (len = raw) on 0x83 */
/* violation bits */
#define ACCEL_EDGETPU_MODEL_V_ORDER 0x01u  /* bulk-out while an output read was incomplete */
#define ACCEL_EDGETPU_MODEL_V_HEADER 0x02u /* bad header, header not alone, or tag > 2 */
#define ACCEL_EDGETPU_MODEL_V_SIZE 0x04u   /* more data than the header announced */
#define ACCEL_EDGETPU_MODEL_V_SCRIPT 0x08u /* a request the script did not expect */
#define ACCEL_EDGETPU_MODEL_V_CSR 0x10u    /* malformed control request or register file full */

typedef struct accel_edgetpu_model_item {
    uint8_t kind, tag;
    uint32_t len;
} accel_edgetpu_model_item;

typedef struct accel_edgetpu_model {
    uint32_t reg_off[ACCEL_EDGETPU_MODEL_REGS];
    uint64_t reg_val[ACCEL_EDGETPU_MODEL_REGS];
    uint32_t nregs;
    int in_data;                 /* header seen, data owed */
    uint32_t req_len, req_got;
    uint8_t req_tag;
    uint8_t in_sum;
    uint32_t recv_bytes[3], recv_requests[3];
    uint32_t violations, nviolations;
    accel_edgetpu_model_item script[ACCEL_EDGETPU_MODEL_SCRIPT];
    uint32_t nscript, pos;
    uint32_t out_len, out_left;
    int event_ready, irq_ready;
    uint8_t event_tag;
    uint32_t irq_raw;
} accel_edgetpu_model;

ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_model_init(accel_edgetpu_model *d);
/* Fill the model side of an accel_port (usb_control, usb_bulk_out, usb_bulk_in). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_model_port(accel_edgetpu_model *d, accel_port *model);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_model_expect(accel_edgetpu_model *d, uint8_t kind, uint8_t tag,
                                               uint32_t len);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_model_set_reg(accel_edgetpu_model *d, uint32_t off, uint64_t v);
ACCELDEF uint64_t accel_edgetpu_model_reg(const accel_edgetpu_model *d, uint32_t off);
#endif

/* ---- @edgetpu.driver: inference driver ----
 * Runs an executable by walking its DMA hints over the USB protocol: instruction chunks
 * (field offsets linked while streaming), input and parameter slices as tagged requests,
 * output reads into the caller's buffers, interrupt hints as events on 0x82 (tag 4 + n),
 * fences (nothing to do on one synchronous endpoint). Signed layers (SIGNED_FIXED_POINT8/16/32)
 * get the most significant byte of each element XORed with 0x80 on inputs before sending and
 * on outputs after reading. accel_edgetpu_invoke runs a package as libedgetpu's Driver does:
 * if the main executable's token is 0 or differs from the current one, the set of cached
 * parameter-caching executables is cleared; the PARAMETER_CACHING executable runs when its
 * package is not in the set, which it then joins with the current token set to its token.
 * A timeout or stall while running reads the interrupt endpoint: a fatal record (bit 0) is
 * reported as ACCEL_E_EDGETPU_FATAL with hib_error_status / hib_first_error_status read back. */
#ifndef ACCEL_EDGETPU_MAX_CACHED
#define ACCEL_EDGETPU_MAX_CACHED 4
#endif
#define ACCEL_EDGETPU_MIN_SCRATCH 16u

typedef struct accel_edgetpu_driver {
    accel_edgetpu_usb usb;
    uint64_t base_addr[4];     /* address linked per Description (default 0: as compiled) */
    uint64_t current_token;
    const void *cached[ACCEL_EDGETPU_MAX_CACHED]; /* packages whose parameters are on chip */
    uint32_t ncached;
    uint32_t pc_runs, exe_runs;
    uint64_t hib_error_status, hib_first_error_status; /* after ACCEL_E_EDGETPU_FATAL */
    uint32_t irq_raw;
} accel_edgetpu_driver;

/* One buffer per executable layer, in input_layers / output_layers order. */
typedef struct accel_edgetpu_io {
    const uint8_t *const *in;
    const uint32_t *in_len;
    uint32_t n_in;
    uint8_t *const *out;
    const uint32_t *out_len;
    uint32_t n_out;
    uint8_t *scratch; /* >= ACCEL_EDGETPU_MIN_SCRATCH bytes; larger means fewer transfers */
    size_t scratch_len;
} accel_edgetpu_io;

ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_driver_init(accel_edgetpu_driver *d, const accel_port *port,
                                                uint32_t max_chunk);
/* Forget cached parameters (after a reset or close). */
ACCELDEF void accel_edgetpu_driver_reset_cache(accel_edgetpu_driver *d);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_exe_run(accel_edgetpu_driver *d, const accel_edgetpu_exe *e,
                                            const accel_edgetpu_io *io);
/* *ran_pc (may be NULL) tells whether the parameter-caching executable ran. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_invoke(accel_edgetpu_driver *d, const accel_edgetpu_package *m,
                                           const accel_edgetpu_io *io, int *ran_pc);
#ifndef ACCEL_EDGETPU_NO_MODEL
/* Script the device model with what running e should look like (from its DMA hints). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_model_expect_exe(accel_edgetpu_model *dv,
                                                   const accel_edgetpu_exe *e);
#endif

/* ---- @edgetpu.dfu: DFU firmware download (USB DFU 1.1, as libedgetpu's UsbDfuCommands does it) ----
 * A Coral USB Accelerator enumerates as 1a6e:089a until its firmware is downloaded (the image,
 * e.g. libedgetpu's apex_latest_single_ep.bin, is supplied by the caller). DNLOAD blocks of
 * wTransferSize (block number in wValue, interface in wIndex), GETSTATUS after each (waiting
 * bwPollTimeout while the device reports dfuDNBUSY), a zero-length block to finish, optional
 * UPLOAD-and-compare, then DETACH; the bus reset that follows is the port's business. */
#define ACCEL_EDGETPU_DFU_DETACH 0u
#define ACCEL_EDGETPU_DFU_DNLOAD 1u
#define ACCEL_EDGETPU_DFU_UPLOAD 2u
#define ACCEL_EDGETPU_DFU_GETSTATUS 3u
/* states */
#define ACCEL_EDGETPU_DFU_IDLE 2u
#define ACCEL_EDGETPU_DFU_DNBUSY 4u
#define ACCEL_EDGETPU_DFU_DNLOAD_IDLE 5u
#define ACCEL_EDGETPU_DFU_MANIFEST_SYNC 6u
#define ACCEL_EDGETPU_DFU_MANIFEST 7u
#define ACCEL_EDGETPU_DFU_MANIFEST_WAIT_RESET 8u
#define ACCEL_EDGETPU_DFU_ERROR 10u

typedef struct accel_edgetpu_dfu_status {
    uint8_t status;        /* bStatus, 0 = OK */
    uint32_t poll_timeout; /* bwPollTimeout, ms */
    uint8_t state;         /* bState */
} accel_edgetpu_dfu_status;

ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_decode_dfu_status(const uint8_t *in, size_t len,
                                                      accel_edgetpu_dfu_status *out);
/* Download image (len > 0) in blocks of transfer_size (1..65535). *st (may be NULL) gets the
 * last status. ACCEL_E_EDGETPU_DFU when the device reports an error or an unexpected state. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_download(const accel_port *port, uint16_t iface,
                                                 uint16_t transfer_size, const uint8_t *image,
                                                 size_t len, uint32_t timeout_ms,
                                                 accel_edgetpu_dfu_status *st);
/* Scratch accel_edgetpu_dfu_verify borrows: one block, transfer_size bytes
 * (ACCEL_E_ZERO_LENGTH for 0, as the verify says; *bytes is 0 then). */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_verify_scratch_size(uint16_t transfer_size,
                                                            size_t *bytes);
/* Upload and compare with image (the device may return more than len bytes); scratch holds
 * one block (accel_edgetpu_dfu_verify_scratch_size). ACCEL_E_EDGETPU_VERIFY on a mismatch or
 * a short image. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_verify(const accel_port *port, uint16_t iface,
                                               uint16_t transfer_size, const uint8_t *image,
                                               size_t len, uint8_t *scratch, size_t scratch_len,
                                               uint32_t timeout_ms);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_detach(const accel_port *port, uint16_t iface,
                                               uint16_t detach_timeout_ms, uint32_t timeout_ms);
/* wTransferSize of the first DFU functional descriptor (type 0x21) in a configuration
 * descriptor (as read with GET_DESCRIPTOR); ACCEL_E_EMPTY when there is none. */
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_transfer_size(const uint8_t *config, size_t len,
                                                      uint16_t *size);

#ifndef ACCEL_EDGETPU_NO_MODEL
/* DFU side of the device model: stores what is downloaded into a caller buffer. */
typedef struct accel_edgetpu_dfu_model {
    uint8_t *mem;
    size_t cap, len;     /* image bytes stored */
    uint16_t next_block;
    uint8_t state, status;
    uint32_t busy_polls; /* answer dfuDNBUSY this many times after each block */
    uint32_t busy_left, poll_ms;
    int detached, manifested;
    uint32_t dnloads, getstatus, uploads;
} accel_edgetpu_dfu_model;
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_model_init(accel_edgetpu_dfu_model *d, uint8_t *mem,
                                                 size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_edgetpu_dfu_model_port(accel_edgetpu_dfu_model *d, accel_port *model);
#endif
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_EDGETPU */

/* ============================================================================================
 * SECTION: refsi (declarations) @refsi
 * ============================================================================================ */
#ifndef ACCEL_NO_REFSI
#ifdef __cplusplus
extern "C" {
#endif
/* refsi: Codeplay RefSi command processor (CMP), from Codeplay's command-processor reference
 * page and the construction kit's driver code.
 *   wire      builder (accel_refsi_emit_*), register field helpers (accel_refsi_pack_* /
 *             accel_refsi_unpack_*), decoder/validator iterator (accel_refsi_iter_*).
 *   model     a reference CMP (accel_refsi_cmp_*) that executes a buffer against caller memory
 *             callbacks, with memory windows, kernel launches through a C function per instance
 *             and errors reported with command index, byte offset and reason.
 * A command buffer is a run of little-endian 64-bit chunks; each packet is a header
 *   0xC0000000 | opcode << 8 | (payload_chunks * 2) << 16 | inline << 32
 * followed by its payload chunks. It ends at FINISH or at its size.
 * The decoder is strict: beyond the header checks it rejects unused inline bits (the kit's
 * encoder never sets them) and register indices >= 40, so every buffer it accepts disassembles
 * and reassembles byte-exact.
 * Config macros (one place for the assumptions public documentation does not settle):
 *   ACCEL_REFSI_UNIT_CMP         unit id the reference CMP passes for its own memory accesses
 *                                (default 0xFFFFFFFF; COPY_MEM64 reads pass the packet's UNIT).
 *   ACCEL_REFSI_UNIT_HART(h)     unit id for accesses made through hart h's window view
 *                                (default h).
 *   ACCEL_REFSI_INVALID_ADDR     address given to a kernel for an unused packed_args/ktb
 *                                (default 0).
 * ASSUMPTIONS (where the reference page is silent or the kit's driver code says otherwise, the
 * driver code wins, since it is what RefSi runs):
 *   - A header's low byte must be 0 and its packet id 3; its count is in 32-bit units, so an odd
 *     count is malformed; at most 0x1FFF payload chunks.
 *   - Opcode 0 is NOP (skips its payload); FINISH is optional: a buffer also ends at its size.
 *   - Exact payload chunks: WRITE/LOAD/STORE_REG64 and STORE_IMM64 1, COPY_MEM64 3,
 *     RUN_KERNEL_SLICE 2, RUN_INSTANCES NUM_ARGS + 1, SYNC_CACHE 0; anything else is malformed.
 *   - 40 registers: 0-6 named, 7 unnamed but writable, windows 8-39.
 *   - SYNC_CACHE flags: DCACHE = 1 (flush data), ICACHE = 2 (invalidate instructions), done as
 *     the flags mean, once per flag.
 *   - Window MODE value 1 (per hart) is raw value 2 (the field is bits 2:1); SIZE is stored as
 *     size - 1, SCALE_B as factor - 1, SCALE_A as 0 for 1 and log2 + 1 otherwise (the page says
 *     2^A; the driver code is what runs); MAX_HARTS 0 means all harts.
 *   - COPY_MEM64 sources must be 8-byte aligned (ACCEL_E_REFSI_SRC_ALIGN).
 *   - Unit ids of the model's own memory accesses: ACCEL_REFSI_UNIT_CMP / _UNIT_HART (above). */
#ifndef ACCEL_REFSI_UNIT_CMP
#define ACCEL_REFSI_UNIT_CMP 0xFFFFFFFFUL
#endif
#ifndef ACCEL_REFSI_UNIT_HART
#define ACCEL_REFSI_UNIT_HART(h) ((uint64_t)(h))
#endif
#ifndef ACCEL_REFSI_INVALID_ADDR
#define ACCEL_REFSI_INVALID_ADDR 0UL
#endif

/* Opcodes (header bits 15:8). */
#define ACCEL_REFSI_OP_NOP 0u
#define ACCEL_REFSI_OP_FINISH 1u
#define ACCEL_REFSI_OP_WRITE_REG64 2u
#define ACCEL_REFSI_OP_LOAD_REG64 3u
#define ACCEL_REFSI_OP_STORE_REG64 4u
#define ACCEL_REFSI_OP_STORE_IMM64 5u
#define ACCEL_REFSI_OP_COPY_MEM64 6u
#define ACCEL_REFSI_OP_RUN_KERNEL_SLICE 7u
#define ACCEL_REFSI_OP_RUN_INSTANCES 8u
#define ACCEL_REFSI_OP_SYNC_CACHE 9u
#define ACCEL_REFSI_OP_COUNT 10u

/* CMP registers (40 in all; 7 is unnamed but writable). */
#define ACCEL_REFSI_REG_SCRATCH 0u
#define ACCEL_REFSI_REG_ENTRY_PT_FN 1u
#define ACCEL_REFSI_REG_KUB_DESC 2u
#define ACCEL_REFSI_REG_KARGS_INFO 3u
#define ACCEL_REFSI_REG_TSD_INFO 4u
#define ACCEL_REFSI_REG_STACK_TOP 5u
#define ACCEL_REFSI_REG_RETURN_ADDR 6u
#define ACCEL_REFSI_REG_WINDOW_BASE(n) (8u + (unsigned)(n))
#define ACCEL_REFSI_REG_WINDOW_TARGET(n) (16u + (unsigned)(n))
#define ACCEL_REFSI_REG_WINDOW_MODE(n) (24u + (unsigned)(n))
#define ACCEL_REFSI_REG_WINDOW_SCALE(n) (32u + (unsigned)(n))
#define ACCEL_REFSI_NUM_REGS 40u
#define ACCEL_REFSI_NUM_WINDOWS 8u

#define ACCEL_REFSI_MAX_ARGS 7u          /* RUN_INSTANCES extra arguments */
#define ACCEL_REFSI_MAX_PAYLOAD 0x1FFFu  /* payload chunks one header can count */
#define ACCEL_REFSI_CACHE_DCACHE 1u      /* SYNC_CACHE: flush the data cache */
#define ACCEL_REFSI_CACHE_ICACHE 2u      /* SYNC_CACHE: invalidate the instruction cache */

/* WINDOW_MODE fields */
#define ACCEL_REFSI_WINDOW_SHARED 0u
#define ACCEL_REFSI_WINDOW_PER_HART 1u
#define ACCEL_REFSI_WINDOW_PER_CORE 2u
#define ACCEL_REFSI_PERM_READ 1u
#define ACCEL_REFSI_PERM_WRITE 2u
#define ACCEL_REFSI_PERM_EXEC 4u

/* ---- @refsi.builder: appends packets to a caller buffer. A refused command leaves it unchanged. ----
 * Refusals: ACCEL_E_FULL (no room), ACCEL_E_REFSI_REG (index >= 40), ACCEL_E_REFSI_NARGS (> 7),
 * ACCEL_E_REFSI_ADDR32 (STORE_IMM64 destination above 32 bits), ACCEL_E_REFSI_SRC_ALIGN
 * (COPY_MEM64 source not 8-byte aligned), ACCEL_E_REFSI_MAX_HARTS (> 255),
 * ACCEL_E_REFSI_CACHE_FLAGS (SYNC_CACHE flags other than DCACHE|ICACHE), ACCEL_E_TOO_LONG (NOP
 * payload above 0x1FFF chunks: the count field would overflow into the packet id). */
typedef struct accel_refsi_builder {
    uint8_t *buf;
    size_t cap;
    size_t len; /* bytes written so far (a multiple of 8) */
} accel_refsi_builder;

ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_builder_init(accel_refsi_builder *b, void *buf, size_t cap);
/* NOP with `chunks` payload chunks copied from payload_le (8 bytes each, little-endian). */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_nop(accel_refsi_builder *b, const uint8_t *payload_le,
                                           size_t chunks);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_finish(accel_refsi_builder *b);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_write_reg64(accel_refsi_builder *b, uint32_t reg,
                                                   uint64_t value);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_load_reg64(accel_refsi_builder *b, uint32_t reg,
                                                  uint64_t src_addr);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_store_reg64(accel_refsi_builder *b, uint32_t reg,
                                                   uint64_t dst_addr);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_store_imm64(accel_refsi_builder *b, uint64_t dst_addr,
                                                   uint64_t value);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_copy_mem64(accel_refsi_builder *b, uint32_t count,
                                                  uint64_t src_addr, uint64_t dst_addr,
                                                  uint64_t unit);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_run_kernel_slice(accel_refsi_builder *b,
                                                        uint32_t max_harts, uint64_t instances,
                                                        uint64_t slice_id);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_run_instances(accel_refsi_builder *b, uint32_t max_harts,
                                                     uint64_t instances, const uint64_t *args,
                                                     uint32_t nargs);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit_sync_cache(accel_refsi_builder *b, uint32_t flags);

/* ---- @refsi.builder: one decoded command ---- */
typedef struct accel_refsi_cmd {
    uint8_t opcode;          /* ACCEL_REFSI_OP_* */
    uint32_t inline_val;     /* header bits 63:32 as found */
    size_t offset;           /* byte offset of the header in the buffer */
    size_t size;             /* bytes of the packet, header included */
    uint32_t reg;            /* WRITE_REG64, LOAD_REG64, STORE_REG64 */
    uint64_t addr;           /* LOAD_REG64 src, STORE_REG64 dst, STORE_IMM64 dst */
    uint64_t value;          /* WRITE_REG64, STORE_IMM64 */
    uint32_t count;          /* COPY_MEM64 elements */
    uint64_t src, dst, unit; /* COPY_MEM64 */
    uint32_t max_harts;      /* RUN_KERNEL_SLICE, RUN_INSTANCES (0 = all harts) */
    uint64_t instances;      /* RUN_KERNEL_SLICE, RUN_INSTANCES */
    uint64_t slice_id;       /* RUN_KERNEL_SLICE */
    uint32_t nargs;          /* RUN_INSTANCES */
    uint64_t args[ACCEL_REFSI_MAX_ARGS]; /* RUN_INSTANCES */
    uint32_t flags;          /* SYNC_CACHE */
    const uint8_t *payload;  /* NOP: its payload inside the buffer (payload_chunks * 8 bytes) */
    size_t payload_chunks;   /* payload chunks of any packet */
} accel_refsi_cmd;

/* Append any decoded (or hand-filled) command; same refusals as the emit_* functions. Only the
 * fields of cmd->opcode are read. */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_emit(accel_refsi_builder *b, const accel_refsi_cmd *cmd);

/* ---- @refsi.decoder: decoder / validator ----
 * next() yields one command per call: ACCEL_OK with *cmd filled, ACCEL_E_EMPTY once the buffer
 * has ended (after FINISH or at its size), or the first malformed packet's status, which is
 * sticky; then it->pos is that packet's byte offset and it->index its command index.
 * Statuses: ACCEL_E_REFSI_PARTIAL_CHUNK, _RESERVED, _PACKET_ID, _ODD_COUNT, _OPCODE,
 * _PAYLOAD_COUNT, _OVERRUN, _INLINE_RESERVED, _REG, _SRC_ALIGN (what the device rejects is
 * rejected here too, so every accepted buffer re-encodes through the builder). */
typedef struct accel_refsi_iter {
    const uint8_t *buf;
    size_t len;
    size_t pos;   /* byte offset of the next (or the offending) packet */
    size_t index; /* command index of the next (or the offending) packet */
    accel_status err;
    int done;     /* 1 once FINISH was read or the buffer ended */
} accel_refsi_iter;

ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_iter_init(accel_refsi_iter *it, const void *buf, size_t len);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_iter_next(accel_refsi_iter *it, accel_refsi_cmd *cmd);
/* Validate a whole buffer: ACCEL_OK, or the first error with *err_index / *err_offset set
 * (either may be NULL). *ncmds (may be NULL) gets the commands before the end or the error. */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_validate(const void *buf, size_t len, size_t *ncmds,
                                           size_t *err_index, size_t *err_offset);

/* ---- @refsi.fields: register field helpers (pack: ACCEL_E_REFSI_FIELD_RANGE for a field out of range;
 * unpack: ACCEL_E_REFSI_REG_RESERVED for reserved bits set or a reserved MODE) ---- */
/* ENTRY_PT_FN: 32-bit entry point address, bits 63:32 reserved. */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_pack_entry_pt(uint64_t addr, uint64_t *reg);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_unpack_entry_pt(uint64_t reg, uint32_t *addr);
/* KUB_DESC: 48-bit address, size in 256-byte units (16 bits). */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_pack_kub_desc(uint64_t addr, uint32_t size_units, uint64_t *reg);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_unpack_kub_desc(uint64_t reg, uint64_t *addr,
                                                  uint32_t *size_units);
/* KARGS_INFO / TSD_INFO: 24-bit offset into the KUB at bit 16, 24-bit size at bit 40; 15:0
 * reserved. */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_pack_kargs_info(uint32_t offset, uint32_t size, uint64_t *reg);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_unpack_kargs_info(uint64_t reg, uint32_t *offset,
                                                    uint32_t *size);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_pack_tsd_info(uint32_t offset, uint32_t size, uint64_t *reg);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_unpack_tsd_info(uint64_t reg, uint32_t *offset, uint32_t *size);

/* WINDOW_MODE: size is in bytes (1 .. 2^32), stored as size - 1 in bits 63:32. */
typedef struct accel_refsi_window_mode {
    uint8_t active;     /* 0 or 1 */
    uint8_t mode;       /* ACCEL_REFSI_WINDOW_SHARED / _PER_HART / _PER_CORE */
    uint8_t interleave; /* 0 or 1 (kept and encoded; the reference CMP does not model it) */
    uint8_t perms;      /* ACCEL_REFSI_PERM_* bits */
    uint8_t stride;     /* 0 .. 31 */
    uint64_t size;      /* bytes, 1 .. 2^32 */
} accel_refsi_window_mode;
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_pack_window_mode(const accel_refsi_window_mode *m, uint64_t *reg);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_unpack_window_mode(uint64_t reg, accel_refsi_window_mode *m);
/* WINDOW_SCALE = scale_a * scale_b. scale_a is 0 or a power of two up to 2^30 (field A = 0 for
 * 0, else log2 + 1, as the kit's driver encodes it; the reference page says 2^A); scale_b is 1 .. 2^32
 * (stored minus one in bits 63:32). */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_pack_window_scale(uint32_t scale_a, uint64_t scale_b,
                                                    uint64_t *reg);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_unpack_window_scale(uint64_t reg, uint32_t *scale_a,
                                                      uint64_t *scale_b);

/* Window translation over a register file, for hart hart_id on core core_id: an access of n
 * bytes (n >= 1) at addr that starts inside an active window (lowest index first) goes to
 * TARGET + SCALE * id + (addr - BASE), id being hart_id (PER_HART), core_id (PER_CORE) or 0
 * (SHARED); it must end inside the window (ACCEL_E_REFSI_WINDOW_BOUNDS) and be allowed by its
 * PERMS (access: ACCEL_REFSI_PERM_READ or _WRITE, or 0 to skip the check;
 * ACCEL_E_REFSI_WINDOW_PERM). An address in no
 * active window is physical: *phys = addr. A window register with reserved bits or MODE 3 gives
 * ACCEL_E_REFSI_REG_RESERVED. */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_window_translate(const uint64_t *regs, uint32_t hart_id,
                                                   uint32_t core_id, uint64_t addr, size_t n,
                                                   unsigned access, uint64_t *phys);

#ifndef ACCEL_REFSI_NO_MODEL
/* ---- @refsi.model: reference command processor ---- */
struct accel_refsi_model;

/* The view a kernel instance has of memory: its hart's windows over the CMP's memory. */
typedef struct accel_refsi_hart {
    struct accel_refsi_model *cmp;
    uint32_t hart_id; /* 0 .. num_cores * harts_per_core - 1 (global) */
    uint32_t core_id; /* hart_id / harts_per_core */
} accel_refsi_hart;

/* What one kernel instance is called with. */
typedef struct accel_refsi_launch {
    uint8_t opcode;       /* ACCEL_REFSI_OP_RUN_KERNEL_SLICE or _RUN_INSTANCES */
    uint32_t entry_pt;    /* CMP_ENTRY_PT_FN: lets one callback serve several kernels */
    uint64_t stack_top;   /* CMP_STACK_TOP */
    uint64_t return_addr; /* CMP_RETURN_ADDR */
    uint64_t instance_id;
    uint64_t slice_id;    /* RUN_KERNEL_SLICE */
    uint64_t packed_args; /* RUN_KERNEL_SLICE: KUB + KARGS_OFFSET, or ACCEL_REFSI_INVALID_ADDR */
    uint64_t ktb;         /* RUN_KERNEL_SLICE: this hart's KTB, or ACCEL_REFSI_INVALID_ADDR */
    uint32_t nargs;       /* RUN_INSTANCES */
    uint64_t args[ACCEL_REFSI_MAX_ARGS]; /* RUN_INSTANCES */
} accel_refsi_launch;

typedef struct accel_refsi_model_config {
    void *user; /* passed back to every callback */
    /* Device memory, physical addresses. unit: ACCEL_REFSI_UNIT_CMP, COPY_MEM64's UNIT, or
     * ACCEL_REFSI_UNIT_HART(h) for a hart's accesses. Required. */
    accel_status (*mem_read)(void *user, uint64_t unit, uint64_t addr, void *dst, size_t n);
    accel_status (*mem_write)(void *user, uint64_t unit, uint64_t addr, const void *src,
                              size_t n);
    /* Called once per SYNC_CACHE flag set (DCACHE: flush data, ICACHE: invalidate
     * instructions). NULL: no caches to synchronize. */
    accel_status (*sync_cache)(void *user, uint32_t flag);
    /* One kernel instance. NULL: kernel commands fail with ACCEL_E_UNSUPPORTED. */
    accel_status (*kernel)(void *user, const accel_refsi_hart *hart, const accel_refsi_launch *l);
    uint32_t num_cores;      /* >= 1 */
    uint32_t harts_per_core; /* >= 1 */
    /* RUN_KERNEL_SLICE KTBs: hart h's KTB is ktb_base + h * ktb_stride (physical); TSD_SIZE
     * must not exceed ktb_stride (ACCEL_E_REFSI_KTB_SIZE). */
    uint64_t ktb_base;
    uint64_t ktb_stride;
    /* Largest NUM_INSTANCES executed (ACCEL_E_REFSI_INSTANCES above); 0 = no limit. */
    uint64_t max_instances;
    /* 1: hart accesses must be allowed by the window's PERMS. Default 0, as the kit runs:
     * its own logs show windows with PERMS 0 in use (WINDOW_MODE0 = 0xeffff00000001). */
    int check_perms;
} accel_refsi_model_config;

typedef struct accel_refsi_model {
    accel_refsi_model_config cfg;
    uint64_t regs[ACCEL_REFSI_NUM_REGS]; /* the CMP register file, cleared by init */
} accel_refsi_model;

/* Where and why execution stopped. */
typedef struct accel_refsi_report {
    accel_status status;  /* ACCEL_OK when the buffer ran to FINISH or its end */
    size_t commands;      /* commands completed */
    size_t index;         /* failing command's index */
    size_t offset;        /* failing command's byte offset */
    uint8_t opcode;       /* failing command's opcode (0xFF when it failed to decode) */
    uint64_t instance;    /* kernel errors: the instance that failed */
    uint32_t hart;        /* kernel errors: the hart it ran on */
    uint64_t element;     /* COPY_MEM64 errors: the element that failed */
    int finished;         /* 1 when a FINISH ended the buffer */
} accel_refsi_report;

ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_model_init(accel_refsi_model *cmp, const accel_refsi_model_config *cfg);
/* Execute in order until FINISH, the end, or the first error (which stops the buffer). Returns
 * report->status; report may be NULL. Commands before the error have taken effect. */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_model_execute(accel_refsi_model *cmp, const void *buf, size_t len,
                                              accel_refsi_report *report);
/* Memory access through a hart's windows (for kernels). */
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_hart_read(const accel_refsi_hart *h, uint64_t addr, void *dst,
                                            size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_hart_write(const accel_refsi_hart *h, uint64_t addr,
                                             const void *src, size_t n);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_hart_read64(const accel_refsi_hart *h, uint64_t addr,
                                              uint64_t *v);
ACCELDEF ACCEL_NODISCARD accel_status accel_refsi_hart_write64(const accel_refsi_hart *h, uint64_t addr,
                                               uint64_t v);
#endif /* ACCEL_REFSI_NO_MODEL */
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_REFSI */

/* ============================================================================================
 * SECTION: ane (declarations) @ane
 * ============================================================================================ */
#ifndef ACCEL_NO_ANE
#ifdef __cplusplus
extern "C" {
#endif
/* ane: Apple Neural Engine (M1 "H13" generation).
 * Sources: the public Asahi Linux driver and m1n1 (verified code that drives the engine), and
 * two chapters of a secondary reverse-engineering guide to the firmware and its host protocol
 * ("the guide" below; no public code confirms it). Two backends, one vocabulary:
 *   1. DIRECT SUBMISSION @ane.direct (verified: matches the public Asahi Linux driver and m1n1): the task
 *      manager (TM) and 8 task queues (TQ) programmed through the port's 32-bit register
 *      callbacks: accel_ane_tm_enable / _enqueue / _push / _wait_idle / _drain_irq / _execute.
 *      Register offsets are relative to the DT 'engine' aperture (block base + 0x4000).
 *   2. FIRMWARE COMMAND PROTOCOL @ane.fw (UNVERIFIED: from a secondary reverse-engineering write-up; no
 *      public code confirms it): the 24-byte controller header, the exec-loop channel message
 *      (u16 id at +4), procedure-call bodies, notifications, event and BAR records. Encoders and
 *      decoders reject everything the firmware would assert on, with a status naming the rule.
 *      Byte layouts of bodies beyond the guide's field lists are accel's own choice, marked
 *      "layout assumed" where they appear.
 *   3. FIRMWARE REFERENCE MODEL @ane.fw_model: deterministic state machines of what the write-up says the
 *      firmware does (exec loop, process, cache request + output set, fast-path dispatcher,
 *      scheduler with credit/back-pressure/2 s deadline/recovery gate, message queue and pool,
 *      bring-up handshakes, statistics buffer), plus a register-file model of the TM/TQ for
 *      ports/sim (accel_ane_tm_model_port).
 * Config macros (define before including):
 *   ACCEL_ANE_TM_BASE (0x20000), ACCEL_ANE_TQ_BASE (0x21000)  TM and TQ0 register offsets in
 *       the port's register space (engine-relative; add 0x4000 for a block-relative port).
 *   ACCEL_ANE_TQ_EN_BITS (0x1000)   bits or-ed into TM TQ_EN by enable (m1n1 uses 0x3000).
 *   ACCEL_ANE_IDLE_TIMEOUT_MS (1000), ACCEL_ANE_POLL_MS (1)  completion polling.
 *   ACCEL_ANE_IRQ_MAX_EVENTS (64)   most events drained from one IRQ line (counts are untrusted).
 *   ACCEL_ANE_CALL_CONTAINER_SIZE (4096)  assumed sizeof(sCSneCmdProcedureCallCopyContainer),
 *       the bound on a whole exec-loop message.
 *   ACCEL_ANE_CUSTOM_BAR_GENERIC (0), ACCEL_ANE_CUSTOM_BAR_HW_32BIT (0),
 *   ACCEL_ANE_BUFDESC_OUTPUT (1), ACCEL_ANE_BU_MAGIC1 (1)  firmware enum/magic values the guide
 *       does not give (assumed; correct them here).
 *   ACCEL_ANE_MAX_CACHE_REQUESTS (8), ACCEL_ANE_SCHED_DEPTH (8 per level),
 *   ACCEL_ANE_SCHED_MAX_INFLIGHT (4)  fixed capacities of the firmware model's tables.
 * ASSUMPTIONS:
 *   - TM/TQ register map as the Asahi driver programs it, not as the guide's table gives it: TM
 *     +0x0 REQ_ADDR (TD address), +0x4 REQ_INFO (TD size 31:16, count 15:0), +0x8 REQ_PUSH (the
 *     doorbell: priority | queue << 8), +0xc TQ_EN; per TQ +0x0 STATUS, +0x10 PRTY,
 *     +0x14 FREE_SPACE, +0x20..+0x9c 32 BAR words, +0xa0 network id, +0x130 SIZE1, +0x134 ADDR1;
 *     8 queues at a stride of 0x148, priorities {1,2,3,4,5,6,30,31}. Bases: ACCEL_ANE_TM_BASE,
 *     ACCEL_ANE_TQ_BASE.
 *   - The guide gives two layouts for a message header. Both are kept and named apart: the
 *     24-byte controller header (u32 id first) and the exec-loop channel message (u32 reserved,
 *     u16 id at +4, fields from +8), which is what the firmware's own code reads.
 *   - The guide's id-to-name pairs around 0x0000 / 0x7000 / 0xff00 look shifted: names live in one
 *     data table (accel_ane_cmd_table) and ids placed only by listing order are flagged
 *     ACCEL_ANE_INFO_ASSUMED.
 *   - Whatever the firmware would assert on (field limits, ids off the exec-loop fast path, bad
 *     priorities) is refused by the host-side encoder with its own status, since on a real
 *     engine it is a panic.
 *   - Values the guide omits are macros above (container size, BAR type codes, magic numbers).
 * No struct assignment in this section: freestanding rv32 gcc turns it into memcpy calls. */

/* ==== @ane.direct: 1. direct submission through the TM/TQ registers (verified) ==== */
/* ---- @ane.tm_regs: TM/TQ register map (as the Asahi driver's ane_tm.c programs it) ---- */
#ifndef ACCEL_ANE_TM_BASE
#define ACCEL_ANE_TM_BASE ((uint32_t)0x20000u)
#endif
#ifndef ACCEL_ANE_TQ_BASE
#define ACCEL_ANE_TQ_BASE ((uint32_t)0x21000u)
#endif
#ifndef ACCEL_ANE_TQ_EN_BITS
#define ACCEL_ANE_TQ_EN_BITS ((uint32_t)0x1000u)
#endif
#ifndef ACCEL_ANE_IDLE_TIMEOUT_MS
#define ACCEL_ANE_IDLE_TIMEOUT_MS ((uint32_t)1000u)
#endif
#ifndef ACCEL_ANE_POLL_MS
#define ACCEL_ANE_POLL_MS ((uint32_t)1u)
#endif
#ifndef ACCEL_ANE_IRQ_MAX_EVENTS
#define ACCEL_ANE_IRQ_MAX_EVENTS ((uint32_t)64u)
#endif

#define ACCEL_ANE_TQ_COUNT 8u
#define ACCEL_ANE_TQ_STRIDE ((uint32_t)0x148u)
#define ACCEL_ANE_BAR_COUNT 32u
/* TM registers, offsets from ACCEL_ANE_TM_BASE */
#define ACCEL_ANE_TM_REQ_ADDR ((uint32_t)0x00u)  /* task-descriptor address */
#define ACCEL_ANE_TM_REQ_INFO ((uint32_t)0x04u)  /* TD size (31:16) | TD count (15:0) */
#define ACCEL_ANE_TM_REQ_PUSH ((uint32_t)0x08u)  /* the doorbell: priority | queue << 8 */
#define ACCEL_ANE_TM_TQ_EN ((uint32_t)0x0cu)
#define ACCEL_ANE_TM_IRQ_EVTC(line) (((uint32_t)0x14u) + (uint32_t)(line) * ((uint32_t)0x14u)) /* event count */
#define ACCEL_ANE_TM_IRQ_INFO(line) (((uint32_t)0x18u) + (uint32_t)(line) * ((uint32_t)0x14u)) /* CNT 31:24 NID 23:16 */
#define ACCEL_ANE_TM_IRQ_UNK1(line) (((uint32_t)0x1cu) + (uint32_t)(line) * ((uint32_t)0x14u))
#define ACCEL_ANE_TM_IRQ_TMST(line) (((uint32_t)0x20u) + (uint32_t)(line) * ((uint32_t)0x14u))
#define ACCEL_ANE_TM_IRQ_UNK2(line) (((uint32_t)0x24u) + (uint32_t)(line) * ((uint32_t)0x14u))
#define ACCEL_ANE_TM_COMMIT_INFO ((uint32_t)0x44u) /* committed nid = (v >> 16) & 0xff */
#define ACCEL_ANE_TM_STATUS ((uint32_t)0x54u)      /* bit 0: idle */
#define ACCEL_ANE_TM_ERROR1 ((uint32_t)0x58u)
#define ACCEL_ANE_TM_ERROR2 ((uint32_t)0x5cu)
#define ACCEL_ANE_TM_ERROR3 ((uint32_t)0x60u)
#define ACCEL_ANE_TM_IRQ_EN1 ((uint32_t)0x68u)
#define ACCEL_ANE_TM_IRQ_ACK ((uint32_t)0x6cu)
#define ACCEL_ANE_TM_IRQ_EN2 ((uint32_t)0x70u)
#define ACCEL_ANE_TM_IRQ_EN1_VALUE ((uint32_t)0x4000000u)
#define ACCEL_ANE_TM_IRQ_EN2_VALUE ((uint32_t)0x6u)
#define ACCEL_ANE_TM_IRQ_ACK_BIT ((uint32_t)0x2u)
#define ACCEL_ANE_TM_STATUS_IDLE ((uint32_t)0x1u)
/* TQ registers, offsets from ACCEL_ANE_TQ_BASE + qid * ACCEL_ANE_TQ_STRIDE */
#define ACCEL_ANE_TQ_STATUS ((uint32_t)0x000u) /* 1 = in use, 0 = free */
#define ACCEL_ANE_TQ_PRTY ((uint32_t)0x010u)
#define ACCEL_ANE_TQ_FREE_SPACE ((uint32_t)0x014u)
#define ACCEL_ANE_TQ_INFO ((uint32_t)0x01cu)
#define ACCEL_ANE_TQ_BAR1(i) (((uint32_t)0x020u) + (uint32_t)(i) * 4u)
#define ACCEL_ANE_TQ_NID1 ((uint32_t)0x0a0u)   /* (nid << 8) | 1 */
#define ACCEL_ANE_TQ_SIZE2 ((uint32_t)0x0a4u)
#define ACCEL_ANE_TQ_ADDR2 ((uint32_t)0x0a8u)
#define ACCEL_ANE_TQ_BAR2(i) (((uint32_t)0x0acu) + (uint32_t)(i) * 4u)
#define ACCEL_ANE_TQ_NID2 ((uint32_t)0x12cu)
#define ACCEL_ANE_TQ_SIZE1 ((uint32_t)0x130u)  /* ((td_size >> 2) - 1) << 16 */
#define ACCEL_ANE_TQ_ADDR1 ((uint32_t)0x134u)
#define ACCEL_ANE_TQ_END ((uint32_t)0x138u)
#define ACCEL_ANE_TD_SIZE_MAX ((uint32_t)0x40000u) /* (size >> 2) - 1 must fit 16 bits */
#define ACCEL_ANE_TD_COUNT_MAX ((uint32_t)0xFFFFu)

/* The per-queue priority table the host writes into each TQ_PRTY: {1,2,3,4,5,6,30,31}. */
ACCELDEF uint32_t accel_ane_tq_priority(unsigned qid);
/* Absolute register offsets (no range check: callers check qid first). */
ACCELDEF uint32_t accel_ane_tm_reg(uint32_t off);
ACCELDEF uint32_t accel_ane_tq_reg(unsigned qid, uint32_t off);

/* ---- @ane.td_hdr: task-descriptor header word 0: TID 31:24, NID 23:16, LNID 15:8, EON 7:0 ---- */
typedef struct accel_ane_td_hdr0 {
    uint8_t tid, nid, lnid, eon;
} accel_ane_td_hdr0;
ACCELDEF uint32_t accel_ane_pack_td_hdr0(const accel_ane_td_hdr0 *h);
ACCELDEF void accel_ane_unpack_td_hdr0(uint32_t w, accel_ane_td_hdr0 *h);
/* libane's network-id patch, exactly: (w & 0x0f00ffff) | nid << 16. Note it also clears TID bits
 * 31:28, as libane does. */
ACCELDEF uint32_t accel_ane_td_hdr0_set_nid(uint32_t w, uint8_t nid);
/* Patch word 0 (little-endian) of a TD in memory; td_len must be >= 4. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_td_patch_nid(uint8_t *td, size_t td_len, unsigned nid);

/* ---- @ane.tm: the direct submission driver ---- */
typedef struct accel_ane_request {
    unsigned qid;          /* task queue 0..7 */
    unsigned nid;          /* network id, 8 bits */
    uint32_t td_size;      /* bytes of one TD: multiple of 4, 4..0x40000 */
    uint32_t td_count;     /* TDs in the chain: 1..0xFFFF */
    uint32_t btsp_iova;    /* device address of the (nid-patched) first TD */
    const uint32_t *bar;   /* nbar BAR words (device addresses); the rest are written 0 */
    unsigned nbar;         /* 0..32 (bar may be NULL when 0) */
} accel_ane_request;

typedef struct accel_ane_irq_event {
    uint32_t info, unk1, tmst, unk2; /* info: CNT 31:24, NID 23:16 */
} accel_ane_irq_event;

typedef struct accel_ane_tm {
    const accel_port *port;
    uint32_t tm_base, tq_base;
    uint32_t timeout_ms, poll_ms;
    uint8_t enabled;
    uint8_t busy; /* bit q: queue q enqueued and not yet released */
} accel_ane_tm;

typedef struct accel_ane_result {
    uint32_t tm_status;    /* last TM_STATUS read */
    uint32_t irq_count[2]; /* events each IRQ line reported */
} accel_ane_result;

/* Bases from ACCEL_ANE_TM_BASE/TQ_BASE, timeouts from the config macros. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_init(accel_ane_tm *tm, const accel_port *port);
/* TQ_EN |= ACCEL_ANE_TQ_EN_BITS, TQ_PRTY[q] = table[q] for q 0..7, IRQ_EN1, IRQ_EN2. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_enable(accel_ane_tm *tm);
/* IRQ_EN1 = 0, IRQ_EN2 = 0, TQ_EN &= ~ACCEL_ANE_TQ_EN_BITS. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_disable(accel_ane_tm *tm);
/* Every argument rule of a request, no I/O. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_check_request(const accel_ane_request *req);
/* TQ_STATUS = 1, 32 BAR words, SIZE1, ADDR1, NID1. Needs enable; the queue must be free. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_enqueue(accel_ane_tm *tm, const accel_ane_request *req);
/* REQ_ADDR = TQ_ADDR1, REQ_INFO = TQ_SIZE1 | td_count, REQ_PUSH = prty | qid << 8. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_push(accel_ane_tm *tm, const accel_ane_request *req);
/* Poll TM_STATUS bit 0 (idle) every poll_ms for timeout_ms; *status (may be NULL) = last read. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_wait_idle(accel_ane_tm *tm, uint32_t *status);
/* Drain IRQ line 0 or 1: read the event count, then 4 registers per event (at most
 * ACCEL_ANE_IRQ_MAX_EVENTS; the first `max` are stored in ev, which may be NULL). Line 0 is then
 * acknowledged (IRQ_ACK |= 2), as the Asahi driver does; line 1 has no ack. *count = the
 * device's count. ACCEL_E_OVERFLOW when the count exceeded ACCEL_ANE_IRQ_MAX_EVENTS. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_drain_irq(accel_ane_tm *tm, unsigned line,
                                             accel_ane_irq_event *ev, size_t max,
                                             uint32_t *count);
/* Release the queue (TQ_STATUS = 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_release(accel_ane_tm *tm, unsigned qid);
/* push, wait idle, drain both lines, release. On timeout the lines are still drained and the
 * queue released, then ACCEL_E_TIMEOUT. res may be NULL. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_execute(accel_ane_tm *tm, const accel_ane_request *req,
                                           accel_ane_result *res);
/* enqueue + execute. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_submit(accel_ane_tm *tm, const accel_ane_request *req,
                                          accel_ane_result *res);

#ifndef ACCEL_ANE_NO_MODEL
/* ---- @ane.tm_model: TM/TQ register-file model (for ports/sim) ----
 * Every register of the TM block and the 8 TQs as plain storage. A write to REQ_PUSH "runs" the
 * queued chain: TM_STATUS reads not-idle until exec_ms of simulated time passed (forever when
 * stuck), then idle; IRQ line 0 reports one event (info = td_count << 24 | nid << 16) and
 * COMMIT_INFO = nid << 16. Offsets outside the file read 0 and fail writes with ACCEL_E_ARG. */
#define ACCEL_ANE_MODEL_TM_WORDS 0x20u /* TM 0x00..0x7c */
#define ACCEL_ANE_MODEL_TQ_WORDS (8u * 0x148u / 4u)
typedef struct accel_ane_tm_model {
    uint32_t tm[ACCEL_ANE_MODEL_TM_WORDS];
    uint32_t tq[ACCEL_ANE_MODEL_TQ_WORDS];
    uint32_t tm_base, tq_base;
    uint32_t exec_ms;    /* simulated run time of one push */
    uint32_t remaining;  /* ms left of the running push */
    uint8_t running, stuck;
    uint32_t pushes;     /* doorbells seen */
    uint32_t bad_writes; /* writes outside the file */
} accel_ane_tm_model;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_model_init(accel_ane_tm_model *m);
/* Fill model (reg_read32, reg_write32, delay_ms) for accel_sim_attach. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_tm_model_port(accel_ane_tm_model *m, accel_port *model);

#endif /* ACCEL_ANE_NO_MODEL */
/* ==== @ane.fw: 2. firmware command protocol (UNVERIFIED: from the guide's firmware and protocol
 * chapters) ====
 * Two framings, kept apart (see ASSUMPTIONS above):
 *   controller message: the 24-byte sCSneControllerCmdHdr (u32 id 0x00..0x5c, u32 size, u32
 *     priority, i32 programId, i32 processId, u32 procedureId), then `size` body bytes;
 *   exec-loop channel message ("xl"): u32 reserved @0, u16 id @4 (wire enum), u16 reserved @6,
 *     fields from @8.
 * All integers little-endian. Field order beyond what the guide prints is accel's assumption. */
#define ACCEL_ANE_CTL_HDR_SIZE 24u
#define ACCEL_ANE_XL_HDR_SIZE 8u
#define ACCEL_ANE_EVENT_SIZE 24u  /* { u32 type; u32 targetMask; u64 id; u64 value; } */
#define ACCEL_ANE_BAR_SIZE 32u    /* { u32 type, cfg, barId, reserved; u64 value; u64 bufSize } */
#define ACCEL_ANE_CHAIN_BUF_SIZE 16u /* { u32 type; u32 outputBufferSetId; u64 address } */
#define ACCEL_ANE_CTL_ID_MAX 0x5cu
#define ACCEL_ANE_CTL_ID_INVALID 0xFFFFFFFFUL

/* firmware limits (Tables 29.4, 30.3, 30.4, 29.6 and the fast-path validator) */
#define ACCEL_ANE_PRIORITY_LEVELS 8u       /* fwPriority < 8 */
#define ACCEL_ANE_PRIORITY_NORMAL_MIN 2u   /* 0..1 realtime band, 2..7 normal band */
#define ACCEL_ANE_PROGRAM_ID_LIMIT 144u    /* programId < 144 */
#define ACCEL_ANE_PROCEDURE_ID_LIMIT 288u  /* procId < 288 */
#define ACCEL_ANE_MAX_CUSTOM_BARS 32u
#define ACCEL_ANE_MAX_EXEC_ORDER 128u
#define ACCEL_ANE_MAX_SIGNAL_EVENTS 16u
#define ACCEL_ANE_MAX_INPUT_BUFFERS 16u
#define ACCEL_ANE_MAX_SHARED_EVENTS_ACTIVE 1u /* sharedEventsActiveNbr < 2 */
#define ACCEL_ANE_RPC_MAX_LEN 0x800000UL
#define ACCEL_ANE_RPC_MAGIC 0x55aa55aaUL
#define ACCEL_ANE_STATS_MIN_SIZE 0x4cu /* header 0x28 + event 0x14 + debug 0x10 records */
#ifndef ACCEL_ANE_CALL_CONTAINER_SIZE
#define ACCEL_ANE_CALL_CONTAINER_SIZE 4096u
#endif
#ifndef ACCEL_ANE_CUSTOM_BAR_GENERIC
#define ACCEL_ANE_CUSTOM_BAR_GENERIC 0u
#endif
#ifndef ACCEL_ANE_CUSTOM_BAR_HW_32BIT
#define ACCEL_ANE_CUSTOM_BAR_HW_32BIT 0u
#endif
#ifndef ACCEL_ANE_BUFDESC_OUTPUT
#define ACCEL_ANE_BUFDESC_OUTPUT 1u /* eCSneBufferDescriptorType_OutputBuffer (value assumed) */
#endif

/* ---- @ane.ids: the two id spaces, as one data table (correct a doubtful name here, nowhere else) ---- */
#define ACCEL_ANE_SPACE_CTL 1u  /* dispatched eCSneCmdId 0x00..0x5c */
#define ACCEL_ANE_SPACE_WIRE 2u /* ECSneCmdId wire enum, the u16 at exec-loop +4 */
#define ACCEL_ANE_DIR_UNKNOWN 0u
#define ACCEL_ANE_DIR_H2F 1u /* host to firmware */
#define ACCEL_ANE_DIR_F2H 2u /* firmware to host (notification) */
#define ACCEL_ANE_DIR_BOTH 3u
#define ACCEL_ANE_INFO_FASTPATH 0x1u /* accepted by the exec-loop dispatcher */
#define ACCEL_ANE_INFO_ASSUMED 0x2u  /* id placed by the guide's listing order, not pinned */

/* wire ids the guide pins down */
#define ACCEL_ANE_WIRE_DEBUG_COMMAND_DATA_CHECK 0x0000u
#define ACCEL_ANE_WIRE_CH_DATA_FILE_LOAD2 0x002du
#define ACCEL_ANE_WIRE_CH_ERROR_NOTIFICATION 0x0100u   /* assumed position */
#define ACCEL_ANE_WIRE_CH_SIGNPOST 0x0102u             /* assumed position */
#define ACCEL_ANE_WIRE_CH_SIGNPOST_GROUP 0x0103u       /* assumed position */
#define ACCEL_ANE_WIRE_CH_SIGNPOST64 0x0104u           /* assumed position */
#define ACCEL_ANE_WIRE_CH_SIGNPOST64_GROUP 0x0105u     /* assumed position */
#define ACCEL_ANE_WIRE_CH_RESET_NOTIFICATION 0x0106u   /* assumed position */
#define ACCEL_ANE_WIRE_PROCEDURE_CALL 0x0204u
#define ACCEL_ANE_WIRE_CACHE_REQUEST_TRIGGER 0x0209u
#define ACCEL_ANE_WIRE_CACHE_REQUEST_SUBMIT 0x020au
#define ACCEL_ANE_WIRE_PROCEDURE_CALL_WITH_BARS 0x020cu
#define ACCEL_ANE_WIRE_PROCEDURE_CALL_WITH_EVENTS 0x0211u
#define ACCEL_ANE_WIRE_PROCEDURE_CALL_VARIANT 0x0212u
#define ACCEL_ANE_WIRE_PROGRAM_EVENT 0x0301u           /* assumed position */
#define ACCEL_ANE_WIRE_DATA_CHAINING_EVENT 0x0304u     /* assumed position */
#define ACCEL_ANE_WIRE_PREFETCH_DSID_EVENT 0x0305u     /* assumed position */
#define ACCEL_ANE_WIRE_RETURN_PROCESS_ID 0x0404u
#define ACCEL_ANE_WIRE_INFERENCE_CALL 0x7000u
#define ACCEL_ANE_WIRE_BACK_CHANNEL_RPC 0xff00u
/* dispatched (controller) ids the guide pins down */
#define ACCEL_ANE_CTL_PROPERTY_WRITE 0x1eu
#define ACCEL_ANE_CTL_PROPERTY_READ 0x1fu
#define ACCEL_ANE_CTL_PROCEDURE_CALL 0x41u
#define ACCEL_ANE_CTL_CACHE_REQUEST_INSTALL 0x45u
#define ACCEL_ANE_CTL_CACHE_REQUEST_TRIGGER 0x46u
#define ACCEL_ANE_CTL_CACHE_REQUEST_RECYCLE 0x47u
#define ACCEL_ANE_CTL_CACHE_REQUEST_INVALIDATE 0x48u
#define ACCEL_ANE_CTL_PREMAP_BUFFER 0x4au
#define ACCEL_ANE_CTL_FORCE_DISABLE_CACHE_REQUESTS 0x4du
#define ACCEL_ANE_CTL_SET_ACTIVE_CACHE_REQUEST_IN_GROUP 0x4fu
#define ACCEL_ANE_CTL_INFERENCE_CALL 0x5au
#define ACCEL_ANE_CTL_BACK_CHANNEL_RPC 0x5bu

typedef struct accel_ane_cmd_info {
    uint8_t space, dir, flags;
    uint16_t id;
    const char *name;
} accel_ane_cmd_info;

/* What is known of an id: its name (a table entry, else the family name), family, direction.
 * ACCEL_E_ANE_ID when the id is outside every family of its space. */
typedef struct accel_ane_cmd_desc {
    const char *name;   /* never NULL on success */
    const char *family; /* never NULL on success */
    uint8_t dir, flags;
    uint8_t named;      /* 1: a table entry names it */
} accel_ane_cmd_desc;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cmd_describe(unsigned space, uint32_t id, accel_ane_cmd_desc *d);
/* The table itself (for tools): *n entries. */
ACCELDEF const accel_ane_cmd_info *accel_ane_cmd_table(size_t *n);
/* 1 when the exec-loop dispatcher implements the wire id (anything else panics the firmware). */
ACCELDEF int accel_ane_xl_accepts(uint32_t id);

/* ---- @ane.priority: priorities: fwPriority < 8; normal_only: the (2..7) gate, else (0..1) || (2..7) ---- */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_check_priority(uint32_t priority, int normal_only);

/* ---- @ane.records: records ---- */
typedef struct accel_ane_event {
    uint32_t type, target_mask;
    uint64_t id, value;
} accel_ane_event;
typedef struct accel_ane_bar {
    uint32_t type, cfg, bar_id;
    uint64_t value, buf_size;
} accel_ane_bar;
typedef struct accel_ane_chain_buf {
    uint32_t type, output_set_id;
    uint64_t address;
} accel_ane_chain_buf;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_event(const accel_ane_event *e, uint8_t *out, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_event(const uint8_t *in, size_t len, accel_ane_event *e);
/* BAR: encode/decode enforce type GENERIC, cfg HW_32BIT and barId < 32. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_bar(const accel_ane_bar *b, uint8_t *out, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_bar(const uint8_t *in, size_t len, accel_ane_bar *b);

/* ---- @ane.frames: the two message headers (controller, exec-loop) ---- */
typedef struct accel_ane_ctl_hdr {
    uint32_t id, size, priority;
    int32_t program_id, process_id; /* -1: unbound */
    uint32_t procedure_id;
} accel_ane_ctl_hdr;
/* Encoder: id <= 0x5c and not firmware-to-host only, priority < 8, ids >= -1. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_ctl_hdr(const accel_ane_ctl_hdr *h, uint8_t *out,
                                               size_t cap);
/* Decoder: also maxCmdBufSize >= 24 + size (ACCEL_E_ANE_MSG_SIZE) and len >= 24 + size.
 * *body points at the body inside buf. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_ctl_hdr(const uint8_t *buf, size_t len, size_t max_cmd_buf,
                                           accel_ane_ctl_hdr *h, const uint8_t **body);
/* Generic frame: u32 0, u16 id, u16 0 (what every xl message starts with). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_xl_hdr(uint32_t id, uint8_t *out, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_xl_hdr(const uint8_t *buf, size_t len, uint32_t *id);

/* ---- @ane.proc_call: procedure call (exec-loop ids 0x204 plain, 0x20c custom BARs, 0x211 events, 0x212
 * variant with the plain layout; controller id 0x41 carries the body from +0x18 on) ----
 * xl layout: +8 programId +0xc procId +0x10 proc +0x14 priority | body: +0x18 nbrOfOutputBufferSets
 * +0x1c nbrOfTdPartitions +0x20 nbrOfEventMasks +0x24 nbrOfWaitEvents +0x28 nbrOfSignalEvents
 * +0x2c nbrOfCustomBars +0x30 u64 stats.buffer +0x38 u64 stats.size, then per variant:
 *   BARS:   bars[n], u32 nbrOfCustomExecuteOrder, u32 customExecuteOrderArrayOffset (from message
 *           start, >= callSize = end of this field), u32 order[] at that offset;
 *   EVENTS: u32 bSubNetworkCustomExecuteOrder, u32 sharedEventsActiveNbr, wait[], signal[]. */
#define ACCEL_ANE_PC_PLAIN 0u
#define ACCEL_ANE_PC_BARS 1u
#define ACCEL_ANE_PC_EVENTS 2u
#define ACCEL_ANE_PC_FIXED_SIZE 0x40u
typedef struct accel_ane_proc_call {
    uint32_t id; /* wire id (xl) */
    uint32_t program_id, proc_id, proc, priority;
    int realtime_ok; /* 1: the realtime band 0..1 is admitted for this call */
    uint32_t nbr_output_sets, nbr_td_partitions, nbr_event_masks;
    uint32_t nbr_wait, nbr_signal, nbr_bars;
    uint64_t stats_buffer, stats_size;
    uint32_t nbr_exec_order, exec_order_offset; /* BARS (encoder: offset 0 = right after) */
    uint32_t subnet_custom_order, shared_events_active; /* EVENTS */
    /* encoder input arrays */
    const accel_ane_bar *bars;
    const accel_ane_event *wait, *signal;
    const uint32_t *exec_order;
    /* decoder output: views into the message (read with accel_ane_decode_bar etc.) */
    const uint8_t *raw_bars, *raw_wait, *raw_signal, *raw_exec_order;
} accel_ane_proc_call;
/* Variant of a wire id, or ACCEL_E_ANE_ID when the id is no procedure call. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_proc_call_variant(uint32_t id, unsigned *variant);
/* Every rule of Tables 29.4/30.3/30.4 + bands + fast-path bounds, on the counts (no arrays). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_check_proc_call(const accel_ane_proc_call *pc);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_xl_proc_call(const accel_ane_proc_call *pc, uint8_t *out,
                                                    size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_xl_proc_call(const uint8_t *buf, size_t len,
                                                    accel_ane_proc_call *pc);
/* Controller framing of the plain call (id 0x41): the 24-byte header (priority, programId,
 * processId = pc->proc, procedureId = pc->proc_id, size = body bytes) then the same body from
 * +0x18. pc->id must be the plain wire id 0x204 (the variants have no pinned controller id). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_ctl_proc_call(const accel_ane_proc_call *pc, uint8_t *out,
                                                     size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_ctl_proc_call(const uint8_t *buf, size_t len,
                                                     size_t max_cmd_buf, accel_ane_ctl_hdr *h,
                                                     accel_ane_proc_call *pc);

/* ---- @ane.trigger: cache-request trigger (xl 0x209, 0x20a) ----
 * +8 u64 cacheHandler +0x10 u64 execTimestamp +0x18 priority +0x1c nbrOfAneRequestInList
 * +0x20 nbrOfInputBuffers +0x24 nbrOfOutputBufferSets +0x28 chain_buf[nbrOfInputBuffers] */
#define ACCEL_ANE_TRIGGER_FIXED_SIZE 0x28u
typedef struct accel_ane_trigger {
    uint32_t id;
    uint64_t cache_handler, exec_timestamp;
    uint32_t priority;
    int realtime_ok;
    uint32_t nbr_requests, nbr_inputs, nbr_output_sets;
    const accel_ane_chain_buf *inputs; /* encoder */
    const uint8_t *raw_inputs;         /* decoder view */
} accel_ane_trigger;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_check_chain_buf(const accel_ane_chain_buf *b, uint32_t nbr_output_sets);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_chain_buf(const uint8_t *in, size_t len, uint32_t nbr_output_sets,
                                                 accel_ane_chain_buf *b);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_xl_trigger(const accel_ane_trigger *t, uint8_t *out,
                                                  size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_xl_trigger(const uint8_t *buf, size_t len,
                                                  accel_ane_trigger *t);

/* ---- @ane.rpc: back-channel RPC body: u32 magic 0x55aa55aa, u32 length <= 0x800000, payload[length]
 * (xl 0xff00 at +8; controller 0x5b as the body) ---- */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_rpc(const uint8_t *payload, uint32_t n, uint8_t *out,
                                           size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_rpc(const uint8_t *body, size_t len,
                                           const uint8_t **payload, uint32_t *n);

/* ---- @ane.xl_cmds: other exec-loop commands ---- */
/* 0x404 RETURN_PROCESS_ID: +8 i32 processId (>= 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_xl_return_pid(int32_t pid, uint8_t *out, size_t cap, size_t *len);

/* ---- @ane.ctl_bodies: controller bodies ---- */
/* property read (0x1f) / write (0x1e): { u64 regAddr; u32 regValue; u32 reserved }, write
 * needs regValue != 0. */
#define ACCEL_ANE_PROPERTY_SIZE 16u
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_property(int write, uint64_t reg_addr, uint32_t value,
                                                uint8_t *out, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_property(int write, const uint8_t *body, size_t len,
                                                uint64_t *reg_addr, uint32_t *value);
/* premap (0x4a): { u32 nbrOfOps == 1; u32 nbrOfBuffers == 1; u64 addr != 0; u64 size != 0 } */
#define ACCEL_ANE_PREMAP_SIZE 24u
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_premap(uint32_t nops, uint32_t nbufs, uint64_t addr,
                                              uint64_t size, uint8_t *out, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_premap(const uint8_t *body, size_t len, uint64_t *addr,
                                              uint64_t *size);
/* inference call (0x5a): { u32 bufNbr; u32 reserved; u64 propAddr; u64 propSize;
 * { u64 addr; u64 size } buf[bufNbr] }, bufNbr == 1 + numIoBuffers of the procedure. */
#define ACCEL_ANE_INFERENCE_FIXED_SIZE 24u
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_inference(uint32_t num_io_buffers, uint32_t buf_nbr,
                                                 uint64_t prop_addr, uint64_t prop_size,
                                                 const uint64_t *addr_size_pairs, uint8_t *out,
                                                 size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_inference(const uint8_t *body, size_t len,
                                                 uint32_t num_io_buffers, uint32_t *buf_nbr,
                                                 uint64_t *prop_addr, uint64_t *prop_size,
                                                 const uint8_t **raw_bufs);
/* cache-request controller bodies (layout assumed): install 0x45 { u32 nbrOfAneRequestInList
 * == 1; u32 nbrOfOutputBufferSets == 1 } (handle unused); recycle 0x47 { u64 cacheHandler;
 * u32 outputBufferSetId < 1; u32 reserved }; invalidate 0x48 and group select 0x4f
 * { u64 cacheHandler }. Other ids: ACCEL_E_ANE_ID. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_cr_body(uint32_t ctl_id, uint64_t handle, uint32_t set_id,
                                               uint8_t *out, size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_cr_body(uint32_t ctl_id, const uint8_t *body, size_t len,
                                               uint64_t *handle, uint32_t *set_id);
/* force-disable cache requests (0x4d): { u32 disable }, admitted only when 1. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_force_disable(uint32_t disable, uint8_t *out, size_t cap);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_force_disable(const uint8_t *body, size_t len);

/* ---- @ane.notes: notifications (firmware to host, xl framing) ---- */
#define ACCEL_ANE_NOTE_OTHER 0u  /* known F2H id without a decoded body: payload view */
#define ACCEL_ANE_NOTE_PROGRAM_EVENT 1u
#define ACCEL_ANE_NOTE_DATA_CHAINING 2u
#define ACCEL_ANE_NOTE_PREFETCH_DSID 3u
#define ACCEL_ANE_NOTE_CH_ERROR 4u
#define ACCEL_ANE_NOTE_RESET 5u
#define ACCEL_ANE_NOTE_SIGNPOST 6u   /* single or grouped, 32- or 64-bit */
typedef struct accel_ane_note {
    uint32_t id;
    unsigned kind;
    int32_t program_id, process_id;   /* PROGRAM_EVENT: +8, +0xc */
    uint32_t event;                   /* PROGRAM_EVENT +0x10, PREFETCH +0xc */
    uint64_t cache_handler, exec_timestamp; /* DATA_CHAINING +8, +0x10 */
    uint32_t status;                  /* DATA_CHAINING +0x18 */
    uint32_t dsid;                    /* PREFETCH +8 */
    uint32_t channel, error_index;    /* CH_ERROR +8, +0xc */
    uint32_t first_tq, last_tq;       /* RESET +8, +0xc: 1 <= first <= last <= 255 */
    uint32_t sp_count, sp_size;       /* SIGNPOST: records, bytes each (16 or 24) */
    const uint8_t *payload;           /* SIGNPOST records / OTHER payload */
    size_t payload_len;
} accel_ane_note;
/* signpost record: 32-bit { u32 code; u32 arg; u64 ts }, 64-bit { u32 code; u32 rsv; u64 arg;
 * u64 ts }; grouped variants: +8 u32 count (>= 1), records from +0xc. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_note(const accel_ane_note *n, uint8_t *out, size_t cap,
                                            size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_note(const uint8_t *buf, size_t len, accel_ane_note *n);

#ifndef ACCEL_ANE_NO_MODEL
/* ==== @ane.fw_model: 3. firmware reference model (what the guide says the firmware does) ====
 * Deterministic, allocation-free; time is a parameter (ms). Each step returns ACCEL_OK when the
 * event is taken, else a status naming why it was refused, and leaves the state unchanged. */

/* ---- @ane.exec_loop: exec loop (Table 29.8) ---- */
#define ACCEL_ANE_XL_INIT 0u
#define ACCEL_ANE_XL_RUN 1u
#define ACCEL_ANE_XL_EXEC 2u
#define ACCEL_ANE_XL_EXEC_SECURE 3u
#define ACCEL_ANE_XL_PAUSE 4u
#define ACCEL_ANE_XL_STATES 5u
#define ACCEL_ANE_XL_EV_DISPATCH 0u
#define ACCEL_ANE_XL_EV_DRAIN 1u
#define ACCEL_ANE_XL_EV_ENTER_SECURE 2u
#define ACCEL_ANE_XL_EV_EXIT_SECURE 3u
#define ACCEL_ANE_XL_EVENTS 4u
typedef struct accel_ane_xl_fsm {
    uint8_t state;
    uint8_t secure;   /* the secure phase is asserted */
    uint8_t asserted; /* an event arrived in PAUSE: the firmware would have panicked */
    uint8_t pending_secure; /* the phase PAUSE switches to */
} accel_ane_xl_fsm;
ACCELDEF void accel_ane_xl_fsm_init(accel_ane_xl_fsm *f);
/* INIT -> RUN (the loop is armed). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_xl_fsm_arm(accel_ane_xl_fsm *f);
/* RUN+DISPATCH -> EXEC (EXEC_SECURE in the secure phase); EXEC*+DRAIN -> RUN; RUN+DRAIN stays;
 * RUN+ENTER_SECURE (non-secure) and RUN+EXIT_SECURE (secure) -> PAUSE (queues quiesced);
 * any event in PAUSE -> ACCEL_E_ANE_INVARIANT (and stays asserted); INIT -> ACCEL_E_STATE;
 * DISPATCH while in flight -> ACCEL_E_BUSY; a switch while in flight or to the phase already
 * in force -> ACCEL_E_STATE. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_xl_fsm_event(accel_ane_xl_fsm *f, unsigned ev);
/* PAUSE -> RUN in the new phase (the secure switch completes). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_xl_fsm_resume(accel_ane_xl_fsm *f);
/* 1 when a handler may touch hardware (EXEC or EXEC_SECURE). */
ACCELDEF int accel_ane_xl_fsm_hw_allowed(const accel_ane_xl_fsm *f);

/* ---- @ane.process: process slots (idle / running); calls to an idle process are dropped and counted ---- */
#define ACCEL_ANE_PROC_IDLE 0u
#define ACCEL_ANE_PROC_RUNNING 1u
#define ACCEL_ANE_PROC_EV_START 0u
#define ACCEL_ANE_PROC_EV_STOP 1u
#define ACCEL_ANE_PROC_EV_CALL 2u
typedef struct accel_ane_proc_fsm {
    uint8_t state;
    uint32_t calls, dropped;
} accel_ane_proc_fsm;
ACCELDEF void accel_ane_proc_fsm_init(accel_ane_proc_fsm *p);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_proc_fsm_event(accel_ane_proc_fsm *p, unsigned ev);

/* ---- @ane.cache: cache requests (available / in-use / invalidating) with their output set
 * (available / in-execution) ---- */
#ifndef ACCEL_ANE_MAX_CACHE_REQUESTS
#define ACCEL_ANE_MAX_CACHE_REQUESTS 8u
#endif
#define ACCEL_ANE_CR_AVAILABLE 0u
#define ACCEL_ANE_CR_IN_USE 1u
#define ACCEL_ANE_CR_INVALIDATING 2u
#define ACCEL_ANE_OUT_AVAILABLE 0u
#define ACCEL_ANE_OUT_IN_EXECUTION 1u
typedef struct accel_ane_cr_slot {
    uint8_t state, out_state, active;
    uint8_t gen;
    uint32_t group;
    uint64_t last_ts;
    uint8_t has_ts;
} accel_ane_cr_slot;
typedef struct accel_ane_cr_pool {
    accel_ane_cr_slot slot[ACCEL_ANE_MAX_CACHE_REQUESTS];
    uint32_t max;        /* maxCacheRequest, <= ACCEL_ANE_MAX_CACHE_REQUESTS */
    uint8_t disabled;    /* global force-disable */
    uint32_t dropped;    /* triggers dropped (wrong state or handle) */
    uint32_t triggers;
} accel_ane_cr_pool;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_init(accel_ane_cr_pool *p, uint32_t max);
/* install: a free index -> IN_USE; *handle = gen << 8 | index (opaque to the host). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_install(accel_ane_cr_pool *p, uint32_t group, uint64_t *handle);
/* trigger: the handle must be live and IN_USE (else dropped, counted, ACCEL_E_ANE_HANDLE), its
 * timestamp strictly above the last (ACCEL_E_ANE_TIMESTAMP), its output set available
 * (ACCEL_E_BUSY); then the output set is in execution. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_trigger(accel_ane_cr_pool *p, uint64_t handle, uint64_t ts);
/* recycle: the host returns the consumed output set (in execution -> available). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_recycle(accel_ane_cr_pool *p, uint64_t handle);
/* invalidate: IN_USE -> INVALIDATING (output set idle) ; finish: INVALIDATING -> AVAILABLE. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_invalidate(accel_ane_cr_pool *p, uint64_t handle);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_finish_invalidate(accel_ane_cr_pool *p, uint64_t handle);
/* group select: this request becomes the active member of its group. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_select(accel_ane_cr_pool *p, uint64_t handle);
/* global force-disable: admitted only when set true (ACCEL_E_ANE_FORCE_DISABLE otherwise). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_cr_force_disable(accel_ane_cr_pool *p, uint32_t disable);

/* ---- @ane.sched: scheduler: 8 levels (0 highest; 0..1 system band), strict priority among levels with
 * credit (credit = the weight table {1,2,3,4,5,6,30,31}, refilled when no waiting level has
 * any), bounded in-flight count with back-pressure, software deadline abort, recovery gate ---- */
#ifndef ACCEL_ANE_SCHED_DEPTH
#define ACCEL_ANE_SCHED_DEPTH 8u
#endif
#ifndef ACCEL_ANE_SCHED_MAX_INFLIGHT
#define ACCEL_ANE_SCHED_MAX_INFLIGHT 4u
#endif
#define ACCEL_ANE_DEADLINE_MS 2000UL
typedef struct accel_ane_job {
    uint32_t tag;      /* caller's id */
    uint8_t prio;
    uint8_t tq;        /* task queue it runs on (1..255) */
    uint32_t start_ms; /* when dispatched */
} accel_ane_job;
typedef struct accel_ane_sched {
    accel_ane_job q[8][ACCEL_ANE_SCHED_DEPTH];
    uint8_t head[8], count[8];
    uint8_t credit[8];
    accel_ane_job inflight[ACCEL_ANE_SCHED_MAX_INFLIGHT];
    uint8_t ninflight, max_inflight;
    uint32_t deadline_ms;
    uint32_t aborts, resets, throttled;
    /* recovery gate */
    uint8_t ready;          /* channel ready for commands */
    uint8_t recovering;
    uint8_t fault_pending;  /* a fault arrived while recovering */
    uint32_t recover_ms;    /* cost of one recovery */
    uint32_t min_gap_ms;    /* rate limit: least time between recovery starts */
    uint32_t recover_start, last_start;
    uint8_t started_once;
    uint32_t recoveries, faults;
    uint8_t reset_first_tq, reset_last_tq; /* range of the last reset notification */
} accel_ane_sched;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_sched_init(accel_ane_sched *s, uint8_t max_inflight,
                                           uint32_t recover_ms, uint32_t min_gap_ms);
/* queue a job: ACCEL_E_ANE_NOT_READY while recovering, ACCEL_E_FULL when its level is full
 * ("priority queue is full"), ACCEL_E_ANE_PRIORITY for a level >= 8, ACCEL_E_ANE_TQ_RANGE for tq 0. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_sched_submit(accel_ane_sched *s, const accel_ane_job *j);
/* dispatch the next job: ACCEL_E_EMPTY, ACCEL_E_BUSY (in-flight bound: back-pressure, counted),
 * ACCEL_E_ANE_NOT_READY. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_sched_dispatch(accel_ane_sched *s, uint32_t now, accel_ane_job *out);
/* a job finished: ACCEL_E_ARG when the tag is not in flight. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_sched_complete(accel_ane_sched *s, uint32_t tag);
/* time passes: in-flight jobs older than the deadline are aborted; abort_clears == 0 escalates
 * to a reset notification over the aborted jobs' queue range and a fault into the gate. The gate
 * frees when recovery finished. *aborted (may be NULL) = jobs aborted now. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_sched_tick(accel_ane_sched *s, uint32_t now, int abort_clears,
                                           uint32_t *aborted);
/* a fault (crash): stage dump, cancel everything in flight, and recover behind the single gate,
 * at most one recovery start per min_gap_ms; faults during recovery keep it not ready. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_sched_fault(accel_ane_sched *s, uint32_t now);

/* ---- @ane.kobj: kernel objects: bounded message queue (fixed width and depth; full/empty are the
 * would-block outcomes) and a fixed pool with total/available counts ---- */
typedef struct accel_ane_msgq {
    accel_ring ring;
    size_t width; /* bytes per message slot; slot = 2-byte length + width */
} accel_ane_msgq;
/* Bytes of caller memory for depth messages of at most width bytes (a slot is a 2-byte length
 * and width bytes): ACCEL_E_ARG for a depth of 0 or a width msgq_init refuses, ACCEL_E_OVERFLOW
 * where size_t cannot hold it; *bytes is 0 then. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_msgq_mem_size(size_t depth, size_t width, size_t *bytes);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_msgq_init(accel_ane_msgq *q, void *buf, size_t buf_len, size_t width);
/* ACCEL_E_FULL = the sender would block; ACCEL_E_TOO_LONG when len > width. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_msgq_send(accel_ane_msgq *q, const void *msg, size_t len);
/* ACCEL_E_EMPTY = the receiver would block. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_msgq_recv(accel_ane_msgq *q, void *msg, size_t cap, size_t *len);
typedef struct accel_ane_pool {
    uint32_t used; /* bit i: slot i taken */
    uint8_t total;
} accel_ane_pool;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_pool_init(accel_ane_pool *p, unsigned total); /* 1..32 */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_pool_alloc(accel_ane_pool *p, unsigned *slot);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_pool_free(accel_ane_pool *p, unsigned slot);
ACCELDEF unsigned accel_ane_pool_available(const accel_ane_pool *p);

/* ---- @ane.bringup: bring-up (Table 29.3 and the first-command list) ---- */
/* Boot invariant: the initial kernel heap must exceed twice the framework reservation
 * (ACCEL_E_ANE_INVARIANT otherwise: the kernel refuses to boot). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_check_boot_heap(uint32_t heap_bytes, uint32_t reserved_bytes);
#define ACCEL_ANE_BU_OFF 0u
#define ACCEL_ANE_BU_WAIT_ALIVE 1u    /* reset released, waiting for scratch 7 first wake */
#define ACCEL_ANE_BU_WAIT_CHANNELS 2u /* waiting for scratch 7 second wake */
#define ACCEL_ANE_BU_WAIT_ACK 3u      /* channel table walked, waiting for scratch 3 + magic */
#define ACCEL_ANE_BU_FIRST_CMDS 4u    /* interrupts on, issuing the first commands in order */
#define ACCEL_ANE_BU_READY 5u
#define ACCEL_ANE_BU_FAILED 6u
#define ACCEL_ANE_BU_EV_POWER_ON 0u
#define ACCEL_ANE_BU_EV_SCRATCH7 1u
#define ACCEL_ANE_BU_EV_CHANNEL 2u     /* arg = index of a named channel resolved (0..7) */
#define ACCEL_ANE_BU_CHANNELS 8u
#define ACCEL_ANE_BU_EV_SCRATCH3 3u    /* arg = magic read back */
#define ACCEL_ANE_BU_EV_TIMEOUT 4u
#define ACCEL_ANE_BU_EV_FIRST_CMD 5u   /* arg = index of the command completed */
#define ACCEL_ANE_BU_FIRST_CMD_COUNT 9u
#ifndef ACCEL_ANE_BU_MAGIC1
#define ACCEL_ANE_BU_MAGIC1 0x1u /* magic-number-1: value not in the guide (assumed) */
#endif
typedef struct accel_ane_bringup {
    uint8_t state;
    uint8_t channels, wakes, next_cmd; /* channels: bit i = channel i resolved */
    uint8_t retries, max_retries;
    uint32_t failures; /* power cycles after a missing second wake */
} accel_ane_bringup;
ACCELDEF void accel_ane_bringup_init(accel_ane_bringup *b, uint8_t max_retries);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_bringup_event(accel_ane_bringup *b, unsigned ev, uint32_t arg);
/* name of first command i (print-enable, start, ...), "" past the end */
ACCELDEF const char *accel_ane_first_cmd_name(unsigned i);
/* name of channel i of the table (SHAREDMALLOC, TERMINAL, ...), "" past the end */
ACCELDEF const char *accel_ane_channel_name(unsigned i);

#endif /* ACCEL_ANE_NO_MODEL */
/* ---- @ane.stats: per-run statistics buffer (Listing 29.4, Table 29.9) ---- */
#define ACCEL_ANE_STATS_HDR_SIZE 0x28u
#define ACCEL_ANE_STATS_EVDESC_SIZE 0x14u
#define ACCEL_ANE_STATS_DBG_SIZE 0x10u
#define ACCEL_ANE_STATS_ENGINE_SIZE 0x20u
#define ACCEL_ANE_STATS_MAGIC 0x0101u
#define ACCEL_ANE_STATS_MAX_ENGINES 32u
typedef struct accel_ane_stats_hdr {
    uint64_t timing;   /* +0x04 */
    uint32_t word0c;   /* +0x0c */
    uint32_t word18;   /* +0x18 */
    uint64_t counter;  /* +0x1c */
} accel_ane_stats_hdr;
typedef struct accel_ane_stats_engine { /* layout assumed: four u32 then the counter quad */
    uint32_t engine_id, type, call_index, engine_index;
    uint32_t counters[4];
} accel_ane_stats_engine;
/* Null-buffer rule: out NULL or cap 0 writes nothing and reports *len 0 (ACCEL_OK). */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_encode_run_stats(const accel_ane_stats_hdr *h,
                                                   const accel_ane_stats_engine *e, unsigned n,
                                                   uint8_t *out, size_t cap, size_t *len);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_decode_run_stats(const uint8_t *in, size_t len, accel_ane_stats_hdr *h,
                                            unsigned *n);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_stats_engine_at(const uint8_t *in, size_t len, unsigned i,
                                                accel_ane_stats_engine *e);

#ifndef ACCEL_ANE_NO_MODEL
/* ---- @ane.doorbell: doorbell emit (Listing 29.3) and the fabric register S3_3_C15_C8_0 (Table 29.5) ----
 * A model of the firmware's guarded doorbell: with interrupts masked, clear bit 39 (open the
 * window), store the doorbell bit, let the fabric latch its response into bits 1/7, sample:
 * bit 1 (uncorrectable L2C error) is fatal (ACCEL_E_ANE_INVARIANT, window left open as the
 * firmware panics there); bit 7 (rejected) clears the sticky bits 1 and 7 and reports
 * ACCEL_E_BUSY (retry); then set bit 39 again. */
#define ACCEL_ANE_FAB_PATH_EN ((uint64_t)1 << 0)
#define ACCEL_ANE_FAB_L2C_UNCORR ((uint64_t)1 << 1)
#define ACCEL_ANE_FAB_LINK ((uint64_t)1 << 2)
#define ACCEL_ANE_FAB_LINK2 ((uint64_t)1 << 4)
#define ACCEL_ANE_FAB_REJECT ((uint64_t)1 << 7)
#define ACCEL_ANE_FAB_WINDOW ((uint64_t)1 << 39) /* 0 = window open */
#define ACCEL_ANE_GPU_DOORBELL 0x206468000ULL    /* engine-to-GPU sync doorbell target */
typedef struct accel_ane_fabric {
    uint64_t sysreg;
    uint64_t response;    /* bits the fabric latches after the next store (1 and/or 7) */
    uint64_t last_target; /* where the last doorbell store went */
    uint32_t last_value, stores;
    uint8_t window_seen_open; /* the store happened with bit 39 clear */
} accel_ane_fabric;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_doorbell_emit(accel_ane_fabric *f, uint64_t target, uint32_t bit);
/* power-gate condition: bit 2 set and bit 4 clear; then bits 0, 2, 4 are cleared. */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_fabric_power_gate(accel_ane_fabric *f);

/* ---- @ane.dispatch: fast-path dispatcher (CAneEngineExeLoop::dispatch as the guide describes it) ----
 * Takes one exec-loop message. Ids outside the accepted set fault the firmware (it logs and
 * asserts): ACCEL_E_ANE_UNSUPPORTED_CMD and `faulted` is set, after which every message gets
 * ACCEL_E_ANE_INVARIANT. Bad fields: rejected without running (the decoder's status, counted in
 * `rejected`). A call to a program slot that is not running: dropped and counted
 * (ACCEL_E_ANE_NOT_RUNNING). A cache trigger on a wrong-state handle: dropped (the cache pool's
 * status). Accepted work posts DISPATCH to the exec loop (ACCEL_E_BUSY while one is in flight:
 * the host retries; nothing was consumed). */
typedef struct accel_ane_fw_model {
    accel_ane_xl_fsm loop;
    accel_ane_cr_pool cr;
    uint8_t loaded[(ACCEL_ANE_PROGRAM_ID_LIMIT + 7u) / 8u];  /* per-program validity */
    uint8_t running[(ACCEL_ANE_PROGRAM_ID_LIMIT + 7u) / 8u]; /* process running */
    uint8_t data_file_load_enabled; /* the engine flag guarding 0x2d */
    uint8_t faulted;
    uint32_t accepted, rejected, dropped, rpcs, pids_returned;
    uint32_t last_id;
} accel_ane_fw_model;
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_fw_model_init(accel_ane_fw_model *fw, uint32_t max_cache_requests);
/* program slot: load (valid), start (running), stop, unload */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_fw_model_program(accel_ane_fw_model *fw, uint32_t program_id, int loaded,
                                           int running);
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_fw_model_dispatch(accel_ane_fw_model *fw, const uint8_t *msg, size_t len);
/* the in-flight partition finished (EXEC -> RUN) */
ACCELDEF ACCEL_NODISCARD accel_status accel_ane_fw_model_complete(accel_ane_fw_model *fw);
/* ane: end of declarations */
#endif /* ACCEL_ANE_NO_MODEL */
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_ANE */

/* ============================================================================================
 * SECTION: mac (declarations) @mac
 * ============================================================================================ */
#ifndef ACCEL_NO_MAC
#ifdef __cplusplus
extern "C" {
#endif
/* mac: int8/uint8 multiply-accumulate reference engine, bit-exact with TensorFlow Lite's
 * reference integer kernels (tflite::reference_integer_ops / reference_ops) in their default
 * build: requantization is DOUBLE rounding (SaturatingRoundingDoublingHighMul, then
 * RoundingDivideByPOT). Single rounding (TFLITE_SINGLE_ROUNDING) is an explicit per-call option.
 *   Kernels: fully connected / batched GEMM, conv2d NHWC x OHWI (stride, dilation, padding,
 *   groups), depthwise conv2d (depth multiplier), max and average pool; int8 (per-tensor or
 *   per-channel) and uint8 (input/filter/output offsets). Raw int32 GEMM, exact int16 and N-byte
 *   products from byte planes, Edge TPU uint8<->int8 conversion, quantize/dequantize.
 *   Offsets follow TFLite: input_offset = -input_zero_point, filter_offset = -filter_zero_point,
 *   output_offset = +output_zero_point; shift > 0 is a left shift. Accumulators wrap modulo 2^32
 *   (TFLite leaves int32 overflow undefined; real models never reach it), likewise x * 2^shift.
 * ASSUMPTIONS: the reference is TFLite's default build (double rounding; single rounding only
 *   when a layer asks for ACCEL_MAC_ROUND_SINGLE, never silently); the Edge TPU's uint8 on the
 *   wire is int8 with the sign bit flipped (accel_mac_flip_sign); the DSP kernels need a
 *   little-endian target.
 * Config macros:
 *   ACCEL_MAC_NO_FLOAT  leave out every float/double helper (quantize_multiplier, quantize_f32,
 *                       dequantize_f32); the rest of the engine is integer only.
 *   ACCEL_MAC_FAST      1: the fast kernels (default on 32- and 64-bit targets): on targets with
 *                       32-bit pointers the microcontroller kernels (ACCEL_MAC_MCU below), on
 *                       64-bit hosts 4-channel blocked, unrolled loops that compilers vectorize
 *                       (uint8 x int8 dot products with hoisted offset sums for GEMM batches,
 *                       depthwise and pools) or the explicit SIMD below.
 *                       0: the smallest loops (default on 8/16-bit targets; under 100 bytes of
 *                       stack). Both give identical results (the tests run both).
 *   ACCEL_MAC_MCU       (default 1 with ACCEL_MAC_FAST on targets with 32-bit pointers and no
 *                       x86/AArch64 SIMD) register-blocked kernels written for in-order 32-bit
 *                       cores, so that GCC/Clang at -O2 keep every accumulator in a register
 *                       (no vectorizer needed): FC/GEMM 4 weight rows per pass (Thumb-1: 2);
 *                       conv2d through an im2col patch in caller scratch (3 output pixels x
 *                       2 channels per pass; with the DSP extension 4 x 1), or, without
 *                       scratch, the FC kernel over each filter row's in-image taps; depthwise
 *                       (depth multiplier 1, k_h*k_w <= 25) 4 channels per pass, whole 3x3
 *                       windows unrolled; pools 4 channels per pass; requantization of many
 *                       outputs per call. On 32-bit Arm with the DSP extension (ACCEL_MAC_SIMD
 *                       4: Cortex-M4/M7/M33) the inner loops are SXTB16/SXTAB16 + SMLAD (FC:
 *                       8 bytes and 3 rows a turn of an inline-asm loop using 13 registers;
 *                       builds that reserve both r7 and r9 define ACCEL_MAC_NO_SIMD), depthwise
 *                       SMLABB/SMLATT, max pool SSUB8/SEL. With -Os (__OPTIMIZE_SIZE__) the
 *                       portable inner loops are not unrolled. Stack: up to about 900 bytes
 *                       (conv2d and depthwise: blocks of sums; depthwise: the packed filter
 *                       taps); the scratch holds the im2col patch. Hosts without
 *                       explicit SIMD run conv2d and FC/GEMM of fewer than 4 rows on these
 *                       kernels too (the host loops need -O3's vectorizer; these do not);
 *                       conv2d without scratch reads the input in place. 1 on a 64-bit host
 *                       forces them everywhere (tests/test_mac_mcu.c); needs ACCEL_MAC_FAST 1
 *                       and no x86/AArch64 SIMD (ACCEL_MAC_NO_SIMD).
 *                       Executed instructions per MAC under qemu-system-arm -icount (make
 *                       bench-mcu; arm-none-eabi-gcc 12.2 -O2; int8 per-channel: FC 256->64,
 *                       conv 3x3 16x16x16->16, depthwise 3x3 16x16x32, conv 1x1 16x16x32->32):
 *                       Cortex-M4 1.92, 1.60, 7.77, 2.41; Cortex-M3 3.28, 2.80, 9.41, 3.60
 *                       (CMSIS-NN measured the same way: M4 2.08, 2.33, 8.07, 2.70; M3 3.53,
 *                       3.35, 9.64, 3.66). Code on Cortex-M0+ -Os: FC 1.4 KiB, conv2d 4.0 KiB
 *                       (tests/mac_size.sh).
 *   ACCEL_MAC_NO_SIMD   leave out the explicit SIMD paths below (portable C only).
 * Scratch: accel_mac_conv2d_with_scratch takes caller scratch for the im2col patch (size from
 * accel_mac_conv2d_scratch_size: 2 * (3 or 4) * k_h*k_w*in_c/groups + 3 bytes with
 * ACCEL_MAC_MCU; on x86 SIMD builds the vector kernels' packed filters and patches, up to
 * about 27 KiB; 0 where a build does not use it); accel_mac_conv2d is the same call without
 * scratch (on x86 SIMD builds it then reads in place, below: never a large stack frame).
 * SIMD (read-only ACCEL_MAC_SIMD, set from the target's feature macros; needs ACCEL_MAC_FAST 1
 * and GCC/Clang): 2 = x86 AVX-512 VNNI + BW (vpdpbusd), 1 = x86 AVX2 (int16 madd), both only
 * on hosted builds; 3 = AArch64 NEON with the dot-product extension (sdot), 4 = 32-bit Arm with
 * the DSP extension (the ACCEL_MAC_MCU kernels above; inline assembly, little-endian, where the
 * target has ARMv6 SIMD32; the portable kernels otherwise, e.g. ARMv5TE); 0 = none. 3 and 4 run
 * under QEMU in tests/mac_arm.sh (qemu-aarch64 -cpu max; Cortex-M0/M3/M4/M7/M33 on mps2 boards
 * and the micro:bit), not on hardware.
 * The x86 and AArch64 levels speed up FC / GEMM (accel_mac_fully_connected,
 * accel_mac_matmul_s32) and give results bit-identical to the portable path: every sum is the
 * same one modulo 2^32. AVX-512, batch 1..3 (FC is read-bound there: one weight byte per MAC):
 * 4 weight rows x 2 cache lines per pass, each weight loaded once, the weight sums in the same
 * pass (none when the input zero point is -128 int8 / 0 uint8), aligned weight loads from depth
 * 512 on, results requantized from registers. A prepacked filter (accel_mac_fully_connected_pack)
 * needs no weight sums at run time and is one sequential stream, 64 channels per block, each
 * broadcast group of 4 input bytes against 4 whole vectors, prefetched 2 KiB ahead; 4 input
 * rows (then 2, then 1) share each weight load, no horizontal sums.
 * Both x86 levels also run conv2d (every group count, stride, dilation and padding;
 * k_h*k_w*in_c/groups <= 1024; AVX-512: double rounding) with output channels in the vector
 * lanes over a per-pixel im2col patch, and depthwise conv2d (depth multiplier 1, k_h*k_w <= 64;
 * AVX-512: 64 channels and 4 taps per vpdpbusd, double rounding, and for windows at most 3 wide
 * with horizontal stride and dilation 1 and k_h <= 16 two adjacent output pixels per pass on
 * shared loads; AVX2: the first in_c & ~7 channels, 8 per vpmaddwd), requantizing in vectors.
 * That conv2d packs its filters and gathers its patches into caller scratch; without it
 * (accel_mac_conv2d), for one group, no column dilation and k_w*in_c a multiple of 4, a kernel
 * reads filter and input in place (weights by vpgatherdd; for a 3x3 conv of 16 to 32 channels
 * about 0.55x (AVX-512) and 0.6x (AVX2) the speed with scratch), else the portable path. Depthwise reads its weights from the filter
 * (two output pixels per pass share them) and needs no scratch. No frame is large (the stack
 * bound above). Every other case takes the portable path. */
#ifndef ACCEL_MAC_FAST
#if defined(UINTPTR_MAX) && UINTPTR_MAX > 0xFFFFu
#define ACCEL_MAC_FAST 1
#else
#define ACCEL_MAC_FAST 0
#endif
#endif
#if ACCEL_MAC_FAST && !defined(ACCEL_MAC_NO_SIMD) && (defined(__GNUC__) || defined(__clang__))
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__ && (defined(__x86_64__) || defined(__i386__))
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
#define ACCEL_MAC_SIMD 2
#elif defined(__AVX2__)
#define ACCEL_MAC_SIMD 1
#endif
#elif defined(__aarch64__) && defined(__ARM_NEON) && defined(__ARM_FEATURE_DOTPROD)
#define ACCEL_MAC_SIMD 3
#elif defined(__arm__) && defined(__ARM_FEATURE_DSP) && (!defined(ACCEL_MAC_MCU) || ACCEL_MAC_MCU)
#define ACCEL_MAC_SIMD 4
#endif
#endif
#ifndef ACCEL_MAC_SIMD
#define ACCEL_MAC_SIMD 0
#endif
#ifndef ACCEL_MAC_MCU
#if ACCEL_MAC_FAST && (ACCEL_MAC_SIMD == 0 || ACCEL_MAC_SIMD == 4) && defined(UINTPTR_MAX) && \
    UINTPTR_MAX <= 0xFFFFFFFFu
#define ACCEL_MAC_MCU 1
#else
#define ACCEL_MAC_MCU 0
#endif
#endif
#if ACCEL_MAC_MCU && (!ACCEL_MAC_FAST || (ACCEL_MAC_SIMD != 0 && ACCEL_MAC_SIMD != 4))
#error "ACCEL_MAC_MCU 1 needs ACCEL_MAC_FAST 1 and no x86/AArch64 SIMD (ACCEL_MAC_NO_SIMD)"
#endif

typedef enum accel_mac_dtype { ACCEL_MAC_INT8 = 0, ACCEL_MAC_UINT8 = 1 } accel_mac_dtype;
typedef enum accel_mac_rounding {
    ACCEL_MAC_ROUND_DOUBLE = 0, /* TFLite default: MultiplyByQuantizedMultiplier */
    ACCEL_MAC_ROUND_SINGLE = 1  /* TFLITE_SINGLE_ROUNDING=1 / CMSIS_NN_USE_SINGLE_ROUNDING */
} accel_mac_rounding;

/* Requantization of one layer. Ranges (checked, each with its own status):
 *   input_offset, filter_offset: int8 -127..128, uint8 -255..0 (minus a zero point of that type)
 *   output_offset: int8 -128..127, uint8 0..255;   act_min <= act_max, both in the type's range
 *   multiplier[i] >= 0 (0 gives 0), shift[i] in -31..+31 (single rounding: -31..+30)
 *   count: 1 = per-tensor (entry 0 for every channel), else >= the number of output channels. */
typedef struct accel_mac_quant {
    accel_mac_dtype dtype; /* input, filter and output; bias is always int32 */
    int32_t input_offset, filter_offset, output_offset;
    const int32_t *multiplier, *shift;
    size_t count;
    int32_t act_min, act_max;
    accel_mac_rounding rounding;
} accel_mac_quant;

/* Geometry of conv2d, depthwise conv2d and pooling (NHWC tensors).
 *   conv: filter OHWI [out_c, k_h, k_w, in_c/groups]; in_c and out_c divisible by groups.
 *   depthwise: filter [1, k_h, k_w, out_c], out_c = in_c * depth_multiplier, channel
 *              o = c * depth_multiplier + m reads input channel c.
 *   pool: k_h x k_w window, out_c = in_c.
 * Input tap (y*stride_h - pad_top + ky*dilation_h, x*stride_w - pad_left + kx*dilation_w);
 * taps outside the image are skipped (zero after the offset), as TFLite does. out_h/out_w are
 * the caller's (TFLite computes them from the padding). dilation, groups and depth_multiplier
 * of 0 mean 1. Each dimension, stride, dilation and pad is at most 65535. */
typedef struct accel_mac_conv {
    uint32_t batches, in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w;
    uint32_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
    uint32_t groups, depth_multiplier;
} accel_mac_conv;

/* ---- @mac.quant: requantization helpers, exactly as TFLite / gemmlowp ---- */
ACCELDEF int32_t accel_mac_saturating_rounding_doubling_high_mul(int32_t a, int32_t b); /* SaturatingRoundingDoublingHighMul */
/* RoundingDivideByPOT; exponent is clamped to 0..31 (TFLite DCHECKs that range). */
ACCELDEF int32_t accel_mac_rounding_divide_by_power_of_two(int32_t x, int32_t exponent);
/* MultiplyByQuantizedMultiplier, double rounding; shift clamped to -31..+31, the left shift
 * wraps modulo 2^32 as two's-complement hardware does (TFLite: undefined). */
ACCELDEF int32_t accel_mac_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift);
/* The single-rounding variant (TFLITE_SINGLE_ROUNDING); the result saturates to int32. */
ACCELDEF int32_t accel_mac_multiply_by_quantized_multiplier_single(int32_t x, int32_t multiplier, int32_t shift);
/* Requantize int32 accumulators (e.g. what an accelerator returned) to int8/uint8:
 * out[i] = clamp(mbqm(acc[i] (+ bias[i % count_b]), ...) + output_offset). Channel = i % channels. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_requantize(const int32_t *acc, size_t n, size_t channels,
                                           const accel_mac_quant *q, void *out, size_t out_len);
#ifndef ACCEL_MAC_NO_FLOAT
/* QuantizeMultiplier: real = multiplier * 2^(shift-31), multiplier in [2^30, 2^31) or 0.
 * ACCEL_E_ARG for NaN or infinity. Shift below -31 gives (0, 0) as TFLite. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_quantize_multiplier(double real, int32_t *multiplier,
                                                    int32_t *shift);
/* TFLite Quantize: q = clamp(round_half_away(x / scale) + zero_point), Dequantize:
 * x = scale * (q - zero_point). scale > 0; zero_point in the type's range. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_quantize_f32(const float *in, size_t n, float scale,
                                             int32_t zero_point, accel_mac_dtype dt, void *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_dequantize_f32(const void *in, size_t n, float scale,
                                               int32_t zero_point, accel_mac_dtype dt, float *out);
#endif

/* ---- @mac.fc: fully connected. Lengths (every kernel) are in elements (bytes for int8/uint8 tensors). bias may be NULL
 * (bias_len 0), otherwise it holds one int32 per output channel. ---- */
/* Fully connected / batched GEMM: input [batches, in_depth], filter [out_depth, in_depth],
 * output [batches, out_depth]. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_fully_connected(uint32_t batches, uint32_t in_depth,
                                                uint32_t out_depth, const void *input,
                                                size_t input_len, const void *filter,
                                                size_t filter_len, const int32_t *bias,
                                                size_t bias_len, const accel_mac_quant *q,
                                                void *output, size_t output_len);
/* Prepacked fully connected, for a filter used many times: accel_mac_fully_connected_pack
 * rearranges the filter once into caller memory for this build's fastest kernel, with the bias
 * and the input offset's terms folded in (as XNNPACK and CMSIS-NN do at setup), and
 * accel_mac_fully_connected_packed then runs it. Its output is byte for byte that of
 * accel_mac_fully_connected with the same filter, bias and q. On AVX-512 VNNI hosts the packed
 * kernel needs no weight sums at run time and passes the pack once per 4 input rows (faster
 * than the ordinary FC at every batch size in bench_mac); elsewhere the pack holds the filter
 * as given and runs on the ordinary kernels.
 *   _pack_mem_size: the pack's bytes for these dimensions in this build (a 64-byte header, the
 *     constants, the filter: at least 64 + 4 * out_depth + in_depth * out_depth).
 *   _pack: packed must be 4-byte aligned (ACCEL_E_ALIGN; it holds int32 constants: an int32_t
 *     array or malloc'd memory; 64-byte alignment is fastest). q is checked as by the FC; its
 *     dtype, input_offset and filter_offset are folded in, the rest of q is read at run time.
 *     Writes exactly _pack_mem_size bytes.
 *   _packed: checks the header: not a pack (magic) ACCEL_E_MALFORMED, a header whose CRC-32
 *     does not match ACCEL_E_CRC, an unknown layout or zero dimensions ACCEL_E_MALFORMED,
 *     packed_len short of what its dimensions need ACCEL_E_TRUNCATED, a layout this build
 *     cannot run ACCEL_E_UNSUPPORTED (every build runs the plain layout; only AVX-512 VNNI
 *     builds run theirs), q whose dtype or offsets differ from the pack's ACCEL_E_ARG; then
 *     input and output as the FC (ACCEL_E_OVERFLOW where batches times a depth exceeds size_t).
 *   A pack does not depend on its address (it may be copied, or stored in a file) but is a
 *   cache for one build, not an exchange format: keep the filter, and pack again where the
 *   build changes. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_fully_connected_pack_mem_size(uint32_t in_depth,
                                                               uint32_t out_depth, size_t *size);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_fully_connected_pack(uint32_t in_depth, uint32_t out_depth,
                                                     const void *filter, size_t filter_len,
                                                     const int32_t *bias, size_t bias_len,
                                                     const accel_mac_quant *q, void *packed,
                                                     size_t packed_len);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_fully_connected_packed(uint32_t batches, const void *input,
                                                       size_t input_len, const void *packed,
                                                       size_t packed_len, const accel_mac_quant *q,
                                                       void *output, size_t output_len);

/* ---- @mac.conv: conv2d, depthwise conv2d and pooling (NHWC, geometry in accel_mac_conv) ---- */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_conv2d(const accel_mac_conv *g, const accel_mac_quant *q,
                                       const void *input, size_t input_len, const void *filter,
                                       size_t filter_len, const int32_t *bias, size_t bias_len,
                                       void *output, size_t output_len);
/* conv2d with caller scratch, which the microcontroller kernels (ACCEL_MAC_MCU) use for an
 * im2col patch: accel_mac_conv2d_scratch_size gives the bytes for geometry g (0 when this
 * build needs none; any alignment). With less (or NULL), the same result comes slower; the
 * scratch is overwritten. accel_mac_conv2d is this with no scratch. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_conv2d_scratch_size(const accel_mac_conv *g, size_t *size);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_conv2d_with_scratch(const accel_mac_conv *g,
                                                    const accel_mac_quant *q, const void *input,
                                                    size_t input_len, const void *filter,
                                                    size_t filter_len, const int32_t *bias,
                                                    size_t bias_len, void *output,
                                                    size_t output_len, void *scratch,
                                                    size_t scratch_len);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_depthwise_conv2d(const accel_mac_conv *g,
                                                 const accel_mac_quant *q, const void *input,
                                                 size_t input_len, const void *filter,
                                                 size_t filter_len, const int32_t *bias,
                                                 size_t bias_len, void *output,
                                                 size_t output_len);
/* Pools: max over the window clipped to the image; average = TFLite's rounded division by the
 * number of in-image taps (int8: half away from zero; uint8: (sum + n/2) / n). A window with no
 * in-image tap is ACCEL_E_MAC_EMPTY_WINDOW (TFLite returns false), checked before any write. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_max_pool2d(const accel_mac_conv *g, accel_mac_dtype dt,
                                           int32_t act_min, int32_t act_max, const void *input,
                                           size_t input_len, void *output, size_t output_len);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_average_pool2d(const accel_mac_conv *g, accel_mac_dtype dt,
                                               int32_t act_min, int32_t act_max,
                                               const void *input, size_t input_len, void *output,
                                               size_t output_len);

/* ---- @mac.gemm: raw int32 GEMM ---- */
/* Raw GEMM, no requantization: out[m*n_cols + n] = sum_k (a[m,k] + a_offset) * (b[n,k] +
 * b_offset), a [m_rows, depth], b [n_cols, depth] (b transposed, like FC filters), both of dtype
 * dt with offsets in the input_offset ranges above. Computed modulo 2^32: exact whenever the
 * true sum fits in int32. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_matmul_s32(accel_mac_dtype dt, uint32_t m_rows, uint32_t n_cols,
                                           uint32_t depth, const void *a, size_t a_len,
                                           int32_t a_offset, const void *b, size_t b_len,
                                           int32_t b_offset, int32_t *out, size_t out_len);

/* ---- @mac.wide: exact wide products from byte planes (the byte-plane technique public Edge TPU
 * write-ups describe for wide products) ----
 * Elements of nbytes (1..4) little-endian bytes, signed (two's complement) or unsigned, are
 * split into byte planes; the nbytes^2 plane products run through accel_mac_matmul_s32 (uint8,
 * the signed top plane as uint8 XOR 0x80 with offset -128, i.e. exactly the Edge TPU's form)
 * and recombine as out = sum_ij P_ij << 8(i+j), modulo 2^64 (exact for nbytes <= 3 always, and
 * for 4 whenever the true result fits int64).
 * Depth limit: each plane sum is exact in int32 only if depth * max|product| <= 2^31 - 1, and
 * the unsigned-by-unsigned planes have max 255*255 = 65025, so depth <= 33025
 * (ACCEL_MAC_WIDE_MAX_DEPTH); nbytes 1 signed (int8 x int8, max 128*128) allows 131071.
 * Beyond it: ACCEL_E_MAC_DEPTH. Scratch: accel_mac_wide_scratch_size(); 4-byte aligned. */
#define ACCEL_MAC_WIDE_MAX_DEPTH 33025UL
ACCELDEF uint32_t accel_mac_wide_depth_limit(uint32_t nbytes, int is_signed);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_wide_scratch_size(uint32_t nbytes, uint32_t m_rows,
                                                  uint32_t n_cols, uint32_t depth, size_t *size);
/* a: m_rows x depth elements, b: n_cols x depth elements (each nbytes bytes, little-endian);
 * out: m_rows x n_cols int64. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_wide_matmul(uint32_t nbytes, int is_signed, uint32_t m_rows,
                                            uint32_t n_cols, uint32_t depth, const uint8_t *a,
                                            size_t a_len, const uint8_t *b, size_t b_len,
                                            int64_t *out, size_t out_len, void *scratch,
                                            size_t scratch_len);
/* int16 x int16 -> int64 (signed) and uint16 x uint16 -> int64, same method (nbytes 2);
 * a_len, b_len and out_len count elements. */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_matmul_s16(uint32_t m_rows, uint32_t n_cols, uint32_t depth,
                                           const int16_t *a, size_t a_len, const int16_t *b,
                                           size_t b_len, int64_t *out, size_t out_len,
                                           void *scratch, size_t scratch_len);
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_matmul_u16(uint32_t m_rows, uint32_t n_cols, uint32_t depth,
                                           const uint16_t *a, size_t a_len, const uint16_t *b,
                                           size_t b_len, int64_t *out, size_t out_len,
                                           void *scratch, size_t scratch_len);

/* ---- @mac.flip: Edge TPU conversions: the device speaks uint8; int8 = uint8 XOR 0x80. For elements of
 * elem_bytes little-endian bytes only the most significant byte flips (n % elem_bytes == 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_mac_flip_sign(void *data, size_t n, size_t elem_bytes);
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_MAC */

/* ============================================================================================
 * SECTION: tflite (declarations) @tflite
 * ============================================================================================ */
#if !defined(ACCEL_NO_TFLITE) && defined(ACCEL_NO_MAC)
#define ACCEL_NO_TFLITE /* it runs on the mac kernels */
#endif
#ifndef ACCEL_NO_TFLITE
#ifdef __cplusplus
extern "C" {
#endif
/* tflite: run a quantized TensorFlow Lite model (.tflite flatbuffer) in place, bit-exact with
 * TensorFlow Lite Micro's reference kernels, on caller memory. Compute only: no port, no device.
 *   @tflite.open   validates the whole model once (every offset, vector length, shape, buffer
 *                  size, quantization, operator code, option table and graph tensor reference),
 *                  with a status naming the rule broken; afterwards nothing reads out of bounds.
 *   @tflite.plan   the arena size: each tensor's life (first to last operator that uses it) is
 *                  computed and tensors whose lives do not overlap share bytes (greedy by size,
 *                  lowest offset first); per-operator scratch is planned the same way, variable
 *                  (state) tensors live for the whole run. The arena is every byte of caller
 *                  memory the runtime uses: the plan table (8 bytes per tensor and per
 *                  operator) and the tensor data. Weights stay in the model buffer.
 *   @tflite.run    init lays the plan on caller memory; set inputs, invoke (operators in order,
 *                  each looked up by its builtin code), read outputs; reset returns variable
 *                  tensors to their zero point (int8) or 0. An optional callback sees every
 *                  operator's outputs (find the first layer where hardware diverges).
 *   @tflite.ops    the kernels: FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D (on the mac kernels),
 *                  AVERAGE_POOL_2D, MAX_POOL_2D, SOFTMAX (int8 -> int8/int16), QUANTIZE
 *                  (int8/uint8/int16/int32 requantization), RESHAPE, CONCATENATION, ADD, MUL
 *                  (int8, broadcast up to 4-D), LOGISTIC (int8), SVDF (int8/int16 state),
 *                  UNIDIRECTIONAL_SEQUENCE_LSTM (integer), DEQUANTIZE (float output; not with
 *                  ACCEL_MAC_NO_FLOAT). Anything else: ACCEL_E_UNSUPPORTED at init, with the
 *                  operator index and code in accel_tflite.bad_op / bad_code.
 * ASSUMPTIONS: the reference is TFLM's default build (double rounding; each multiplier from
 *   the tensors' float32 scales through IEEE double arithmetic, as QuantizeMultiplier does,
 *   which this section reproduces exactly in integers, so no target needs floating point or a
 *   64-bit double). Only the first subgraph runs. The model buffer needs no alignment (a bias
 *   not aligned in it is copied); the arena must be aligned for int32_t (4 bytes on 32/64-bit
 *   targets). Integer sums wrap
 *   modulo 2^32 where TFLite's would overflow (what its builds do in practice).
 * Config macros: ACCEL_NO_TFLITE (ACCEL_NO_MAC implies it), ACCEL_TFLITE_MAX_DIMS (6),
 *   ACCEL_TFLITE_OPS (the operators a build keeps; default all). */

#ifndef ACCEL_TFLITE_MAX_DIMS
#define ACCEL_TFLITE_MAX_DIMS 6
#endif

/* TensorType values of the schema (the ones this section knows). */
#define ACCEL_TFLITE_FLOAT32 0
#define ACCEL_TFLITE_INT32 2
#define ACCEL_TFLITE_UINT8 3
#define ACCEL_TFLITE_INT64 4
#define ACCEL_TFLITE_BOOL 6
#define ACCEL_TFLITE_INT16 7
#define ACCEL_TFLITE_INT8 9

/* ---- @tflite.ops: BuiltinOperator codes of the operators this section knows (the schema's
 * values; codes above 127 only in OperatorCode.builtin_code) ---- */
#define ACCEL_TFLITE_OP_ADD 0
#define ACCEL_TFLITE_OP_AVERAGE_POOL_2D 1
#define ACCEL_TFLITE_OP_CONCATENATION 2
#define ACCEL_TFLITE_OP_CONV_2D 3
#define ACCEL_TFLITE_OP_DEPTHWISE_CONV_2D 4
#define ACCEL_TFLITE_OP_DEQUANTIZE 6
#define ACCEL_TFLITE_OP_FULLY_CONNECTED 9
#define ACCEL_TFLITE_OP_LOGISTIC 14
#define ACCEL_TFLITE_OP_MAX_POOL_2D 17
#define ACCEL_TFLITE_OP_MUL 18
#define ACCEL_TFLITE_OP_RESHAPE 22
#define ACCEL_TFLITE_OP_SOFTMAX 25
#define ACCEL_TFLITE_OP_SVDF 27
#define ACCEL_TFLITE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM 44
#define ACCEL_TFLITE_OP_QUANTIZE 114
/* ACCEL_TFLITE_OPS: the operators a build runs (default all), an OR of these bits; a model that
 * needs another one is refused at init with ACCEL_E_UNSUPPORTED, like an unknown operator. An
 * MCU build for one model keeps only its kernels, e.g.
 * -DACCEL_TFLITE_OPS=ACCEL_TFLITE_K_FULLY_CONNECTED for hello_world. */
#define ACCEL_TFLITE_K_FULLY_CONNECTED 0x0001UL
#define ACCEL_TFLITE_K_CONV_2D 0x0002UL
#define ACCEL_TFLITE_K_DEPTHWISE_CONV_2D 0x0004UL
#define ACCEL_TFLITE_K_AVERAGE_POOL_2D 0x0008UL
#define ACCEL_TFLITE_K_MAX_POOL_2D 0x0010UL
#define ACCEL_TFLITE_K_SOFTMAX 0x0020UL
#define ACCEL_TFLITE_K_QUANTIZE 0x0040UL
#define ACCEL_TFLITE_K_RESHAPE 0x0080UL
#define ACCEL_TFLITE_K_CONCATENATION 0x0100UL
#define ACCEL_TFLITE_K_ADD 0x0200UL
#define ACCEL_TFLITE_K_MUL 0x0400UL
#define ACCEL_TFLITE_K_DEQUANTIZE 0x0800UL
#define ACCEL_TFLITE_K_LOGISTIC 0x1000UL
#define ACCEL_TFLITE_K_SVDF 0x2000UL
#define ACCEL_TFLITE_K_UNIDIRECTIONAL_SEQUENCE_LSTM 0x4000UL
#ifndef ACCEL_TFLITE_OPS
#define ACCEL_TFLITE_OPS 0x7FFFUL
#endif

/* ---- @tflite.open: a validated model (views into the caller's buffer, which must outlive it) */
typedef struct accel_tflite_model {
    const uint8_t *buf;
    size_t len;
    uint32_t version;
    uint32_t n_tensors, n_ops, n_inputs, n_outputs, n_opcodes, n_buffers, n_subgraphs;
    accel_fb_view description;
    /* internal: positions of the vectors in buf */
    size_t tensors_, ops_, inputs_, outputs_, opcodes_, buffers_;
} accel_tflite_model;

/* One tensor as the model describes it (accel_tflite_tensor_info). */
typedef struct accel_tflite_tensor {
    accel_fb_view name;
    int type;                        /* ACCEL_TFLITE_INT8, ... */
    uint32_t ndims;
    int32_t dims[ACCEL_TFLITE_MAX_DIMS];
    size_t elements;
    size_t bytes;                    /* elements * element size (open checks both fit) */
    uint32_t n_scales;               /* 0 without quantization, 1 per tensor, > 1 per channel */
    uint32_t scale_bits;             /* float32 bits of the first scale (0 when none) */
    int32_t zero_point;              /* the first zero point */
    int32_t quantized_dimension;
    int is_variable;
    const uint8_t *data;             /* constant data in the model buffer, else NULL */
    size_t scales_, zero_points_;    /* internal */
} accel_tflite_tensor;

/* One operator: its builtin code and tensor lists (index -1: an absent optional input). */
typedef struct accel_tflite_op {
    int32_t code;
    uint32_t n_inputs, n_outputs, n_intermediates;
    int options_type;                /* the BuiltinOptions union type, 0 when none */
    accel_fb_table options_;         /* internal */
    int has_options_;
    size_t inputs_, outputs_;        /* internal */
} accel_tflite_op;

/* Validate a model. ACCEL_E_NULL, ACCEL_E_MALFORMED (flatbuffer bounds), ACCEL_E_TFLITE_* for a
 * rule of the schema or of the graph; on success every later accessor only indexes. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_open(accel_tflite_model *m, const uint8_t *buf, size_t len);
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_tensor_info(const accel_tflite_model *m, uint32_t index,
                                                               accel_tflite_tensor *out);
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_op_info(const accel_tflite_model *m, uint32_t index,
                                                           accel_tflite_op *out);
/* Tensor index of input / output k of an operator (-1 for an absent optional input). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_op_tensor(const accel_tflite_model *m, const accel_tflite_op *op,
                                                             int is_output, uint32_t k, int32_t *tensor);
/* Tensor index of graph input / output k. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_graph_tensor(const accel_tflite_model *m, int is_output,
                                                                uint32_t k, uint32_t *tensor);
/* "FULLY_CONNECTED", ... for the codes above and a few more; NULL for others. */
ACCELDEF const char *accel_tflite_op_name(int32_t code);
/* Float32 bits of scale k of a tensor (per-channel scales). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_tensor_scale(const accel_tflite_model *m,
                                                                const accel_tflite_tensor *t, uint32_t k,
                                                                uint32_t *bits, int32_t *zero_point);

/* ---- @tflite.plan: the arena
 * accel_tflite_check: ACCEL_OK when every operator is one this build runs, with types, shapes,
 *   quantization and options it accepts; otherwise the status (ACCEL_E_UNSUPPORTED for an
 *   operator or variant not implemented, ACCEL_E_TFLITE_* for an inconsistent one) and, when
 *   op/code are not NULL, the operator's index and builtin code.
 * accel_tflite_plan_scratch_size: bytes of the plan table (the start of the arena): planning
 *   needs no other memory. accel_tflite_plan plans in `work` (at least that many bytes, int32_t
 *   aligned; the arena you will use is fine) and gives the whole arena's size in *bytes: the
 *   size query to call before allocating the arena. */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_check(const accel_tflite_model *m, uint32_t *op, int32_t *code);
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_plan_scratch_size(const accel_tflite_model *m, size_t *bytes);
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_plan(const accel_tflite_model *m, void *work,
                                                        size_t work_len, size_t *bytes);

/* ---- @tflite.run: a runnable model on caller memory ---- */
/* Called after each operator, once per output tensor (op index, builtin code, the tensor's
 * description, its data). It must not call into the same accel_tflite. */
typedef void (*accel_tflite_op_fn)(void *user, uint32_t op_index, int32_t code, uint32_t tensor,
                                   const accel_tflite_tensor *t, const void *data);

typedef struct accel_tflite {
    const accel_tflite_model *model;
    uint8_t *arena;
    size_t arena_len, arena_used;
    accel_tflite_op_fn on_op; /* optional, set after init */
    void *user;
    uint32_t bad_op;          /* the operator a failed check or invoke stopped at */
    int32_t bad_code;         /* its builtin code */
} accel_tflite;

/* Check, plan and lay out; variable tensors start reset. arena: int32_t-aligned (ACCEL_E_ALIGN),
 * at least the bytes accel_tflite_plan gives (ACCEL_E_BUFFER_TOO_SMALL). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_init(accel_tflite *rt, const accel_tflite_model *m,
                                                        void *arena, size_t arena_len);
/* Copy graph input k in (len must equal its bytes: ACCEL_E_ARG). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_set_input(accel_tflite *rt, uint32_t k, const void *data,
                                                             size_t len);
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_invoke(accel_tflite *rt);
/* Copy graph output k out (*len its bytes; ACCEL_E_BUFFER_TOO_SMALL when cap is short). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_get_output(const accel_tflite *rt, uint32_t k, void *out,
                                                              size_t cap, size_t *len);
/* Data of any tensor: in the arena (valid until its bytes are reused by a later operator) or
 * in the model. ACCEL_E_EMPTY for a tensor that has no data (unused). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_tensor_data(const accel_tflite *rt, uint32_t tensor,
                                                               const uint8_t **data, size_t *bytes);
/* Variable tensors back to their initial value (int8: the zero point; others: 0). */
ACCELDEF ACCEL_NODISCARD accel_status accel_tflite_reset(accel_tflite *rt);
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_TFLITE */

/* ---- @deprecated.names: deprecated names (0.1.0 renamed them for one vocabulary; they go in 0.2.0) ----
 * Define ACCEL_NO_DEPRECATED to hide them. One old name cannot be kept: the type
 * accel_edgetpu_model now names the Edge TPU device model (it was the compiled package, now
 * accel_edgetpu_package), so old code using it as a package fails to compile rather than
 * changing meaning silently. */
#ifndef ACCEL_NO_DEPRECATED
#define accel_tsp1_open accel_tsp1_init
#define accel_tsp1_parse_nn_info accel_tsp1_decode_nn_info
#define accel_edgetpu_model_open accel_edgetpu_package_init_tflite
#define accel_edgetpu_package_open accel_edgetpu_package_init
#define accel_edgetpu_model_executable accel_edgetpu_package_executable
#define accel_edgetpu_model_find accel_edgetpu_package_find
#define accel_edgetpu_dev accel_edgetpu_model
#define accel_edgetpu_dev_item accel_edgetpu_model_item
#define accel_edgetpu_dev_init accel_edgetpu_model_init
#define accel_edgetpu_dev_port accel_edgetpu_model_port
#define accel_edgetpu_dev_expect accel_edgetpu_model_expect
#define accel_edgetpu_dev_expect_exe accel_edgetpu_model_expect_exe
#define accel_edgetpu_dev_reg accel_edgetpu_model_reg
#define accel_edgetpu_dev_set_reg accel_edgetpu_model_set_reg
#define accel_edgetpu_dfu_dev accel_edgetpu_dfu_model
#define accel_edgetpu_dfu_dev_init accel_edgetpu_dfu_model_init
#define accel_edgetpu_dfu_dev_port accel_edgetpu_dfu_model_port
#define ACCEL_EDGETPU_DEV_RECV ACCEL_EDGETPU_MODEL_RECV
#define ACCEL_EDGETPU_DEV_OUTPUT ACCEL_EDGETPU_MODEL_OUTPUT
#define ACCEL_EDGETPU_DEV_EVENT ACCEL_EDGETPU_MODEL_EVENT
#define ACCEL_EDGETPU_DEV_IRQ ACCEL_EDGETPU_MODEL_IRQ
#define ACCEL_EDGETPU_DEV_V_CSR ACCEL_EDGETPU_MODEL_V_CSR
#define ACCEL_EDGETPU_DEV_V_HEADER ACCEL_EDGETPU_MODEL_V_HEADER
#define ACCEL_EDGETPU_DEV_V_ORDER ACCEL_EDGETPU_MODEL_V_ORDER
#define ACCEL_EDGETPU_DEV_V_SCRIPT ACCEL_EDGETPU_MODEL_V_SCRIPT
#define ACCEL_EDGETPU_DEV_V_SIZE ACCEL_EDGETPU_MODEL_V_SIZE
#define accel_edgetpu_event_decode accel_edgetpu_decode_event
#define accel_edgetpu_event_encode accel_edgetpu_encode_event
#define accel_edgetpu_header_decode accel_edgetpu_decode_usb_header
#define accel_edgetpu_header_encode accel_edgetpu_encode_header
#define accel_edgetpu_insn_decode accel_edgetpu_decode_insn
#define accel_edgetpu_insn_encode accel_edgetpu_encode_insn
#define accel_edgetpu_irq_decode accel_edgetpu_decode_irq
#define accel_edgetpu_dfu_status_decode accel_edgetpu_decode_dfu_status
#define accel_ane_fw accel_ane_fw_model
#define accel_ane_fw_init accel_ane_fw_model_init
#define accel_ane_fw_dispatch accel_ane_fw_model_dispatch
#define accel_ane_fw_complete accel_ane_fw_model_complete
#define accel_ane_fw_program accel_ane_fw_model_program
#define accel_ane_regmodel accel_ane_tm_model
#define accel_ane_regmodel_init accel_ane_tm_model_init
#define accel_ane_regmodel_port accel_ane_tm_model_port
#define accel_ane_bar_decode accel_ane_decode_bar
#define accel_ane_bar_encode accel_ane_encode_bar
#define accel_ane_chain_buf_decode accel_ane_decode_chain_buf
#define accel_ane_cr_body_decode accel_ane_decode_cr_body
#define accel_ane_cr_body_encode accel_ane_encode_cr_body
#define accel_ane_ctl_decode accel_ane_decode_ctl_hdr
#define accel_ane_ctl_hdr_encode accel_ane_encode_ctl_hdr
#define accel_ane_event_decode accel_ane_decode_event
#define accel_ane_event_encode accel_ane_encode_event
#define accel_ane_force_disable_decode accel_ane_decode_force_disable
#define accel_ane_force_disable_encode accel_ane_encode_force_disable
#define accel_ane_inference_decode accel_ane_decode_inference
#define accel_ane_inference_encode accel_ane_encode_inference
#define accel_ane_note_decode accel_ane_decode_note
#define accel_ane_note_encode accel_ane_encode_note
#define accel_ane_premap_decode accel_ane_decode_premap
#define accel_ane_premap_encode accel_ane_encode_premap
#define accel_ane_property_decode accel_ane_decode_property
#define accel_ane_property_encode accel_ane_encode_property
#define accel_ane_rpc_decode accel_ane_decode_rpc
#define accel_ane_rpc_encode accel_ane_encode_rpc
#define accel_ane_stats_parse accel_ane_decode_run_stats
#define accel_ane_stats_write accel_ane_encode_stats
#define accel_ane_td_hdr0_pack accel_ane_pack_td_hdr0
#define accel_ane_td_hdr0_unpack accel_ane_unpack_td_hdr0
#define accel_ane_xl_hdr_decode accel_ane_decode_xl_hdr
#define accel_ane_xl_hdr_encode accel_ane_encode_xl_hdr
#define accel_refsi_cmp accel_refsi_model
#define accel_refsi_cmp_config accel_refsi_model_config
#define accel_refsi_cmp_init accel_refsi_model_init
#define accel_refsi_cmp_execute accel_refsi_model_execute
#define accel_mac_srdhm accel_mac_saturating_rounding_doubling_high_mul
#define accel_mac_rdbpot accel_mac_rounding_divide_by_power_of_two
#define accel_mac_mbqm accel_mac_multiply_by_quantized_multiplier
#define accel_mac_mbqm_single accel_mac_multiply_by_quantized_multiplier_single
/* Renamed after 0.1.0 by the naming rule of chapter 10 (object first for calls on state, verb
 * first for transforms, a codec's outputs last); accepted until 0.2.0. The two whose arguments
 * moved are function-like macros that put them in the new order. */
#define accel_tsp1_query_nn accel_tsp1_nn_query
#define accel_ane_pc_check accel_ane_check_proc_call
#define accel_ane_chain_buf_check accel_ane_check_chain_buf
#define accel_ane_boot_heap_check accel_ane_check_boot_heap
#define accel_ane_pc_variant accel_ane_proc_call_variant
#define accel_ane_ctl_encode_hdr accel_ane_encode_ctl_hdr
#define accel_ane_ctl_decode_hdr accel_ane_decode_ctl_hdr
#define accel_ane_ctl_encode_proc_call accel_ane_encode_ctl_proc_call
#define accel_ane_ctl_decode_proc_call accel_ane_decode_ctl_proc_call
#define accel_ane_xl_encode_hdr accel_ane_encode_xl_hdr
#define accel_ane_xl_decode_hdr accel_ane_decode_xl_hdr
#define accel_ane_xl_encode_proc_call accel_ane_encode_xl_proc_call
#define accel_ane_xl_decode_proc_call accel_ane_decode_xl_proc_call
#define accel_ane_xl_encode_trigger accel_ane_encode_xl_trigger
#define accel_ane_xl_decode_trigger accel_ane_decode_xl_trigger
#define accel_ane_xl_encode_return_pid accel_ane_encode_xl_return_pid
#define accel_ane_decode_stats accel_ane_decode_run_stats
#define accel_ane_encode_stats(out, cap, h, e, n, len) \
    accel_ane_encode_run_stats((h), (e), (n), (out), (cap), (len))
#define accel_edgetpu_decode_header accel_edgetpu_decode_usb_header
#define accel_edgetpu_encode_header(out, length, tag) accel_edgetpu_encode_usb_header((length), (tag), (out))
#define accel_edgetpu_decode_tflite accel_edgetpu_package_init_tflite
#define accel_mac_fully_connected_pack_size accel_mac_fully_connected_pack_mem_size
#if !defined(ACCEL_NO_TSP1) && !defined(ACCEL_TSP1_NO_MODEL)
/* accel_tsp1_model_mem_size(cmd_cap, rsp_cap) returned the size itself: called with two
 * arguments it still does (the macro picks by the count of arguments). */
static inline size_t accel__tsp1_model_mem_size_2(uint16_t cmd_cap, uint16_t rsp_cap)
{
    return 3u * (size_t)cmd_cap + ACCEL_TSP1_MODEL_SLACK + rsp_cap;
}
#define ACCEL__ARG4(a, b, c, d, ...) d
#define accel_tsp1_model_mem_size(...)                                                            \
    ACCEL__ARG4(__VA_ARGS__, accel_tsp1_model_mem_size, accel__tsp1_model_mem_size_2, _)(__VA_ARGS__)
#endif
#define accel_edgetpu_decode_package accel_edgetpu_package_init
#define accel_tsp1_encode_cmd(buf, cap, id, tid, payload, n, out_len) \
    accel_tsp1_encode_command((id), (tid), (payload), (n), (buf), (cap), (out_len))
#define accel_tsp1_encode_u32(buf, cap, id, tid, value, out_len) \
    accel_tsp1_encode_command_u32((id), (tid), (value), (buf), (cap), (out_len))
#define accel_tsp1_encode_frame(buf, cap, preamble, id, tid, payload, n, out_len) \
    accel_tsp1_encode_raw_frame((preamble), (id), (tid), (payload), (n), (buf), (cap), (out_len))
#endif /* end of the deprecated names */

#endif /* ACCEL_H_INCLUDED */

/* ============================================================================================
 * IMPLEMENTATION @config (the library defaults the code needs), then each section in order
 * Outside the include guard on purpose (stb's rule): a file that includes accel.h once for the
 * declarations and again after #define ACCEL_IMPLEMENTATION still gets the code, once.
 * ============================================================================================ */
#if defined(ACCEL_IMPLEMENTATION) && !defined(ACCEL_IMPLEMENTATION_DONE_)
#define ACCEL_IMPLEMENTATION_DONE_

#if !defined(ACCEL_MEMCPY) || !defined(ACCEL_MEMSET)
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
#include <string.h>
#ifndef ACCEL_MEMCPY
#define ACCEL_MEMCPY(d, s, n) memcpy((d), (s), (n))
#endif
#ifndef ACCEL_MEMSET
#define ACCEL_MEMSET(d, v, n) memset((d), (v), (n))
#endif
#else
/* Freestanding: no C library at all, so plain loops. */
static void accel__memcpy(void *d, const void *s, size_t n)
{
    uint8_t *dp = (uint8_t *)d;
    const uint8_t *sp = (const uint8_t *)s;
    while (n--) *dp++ = *sp++;
}
static void accel__memset(void *d, int v, size_t n)
{
    uint8_t *dp = (uint8_t *)d;
    while (n--) *dp++ = (uint8_t)v;
}
#ifndef ACCEL_MEMCPY
#define ACCEL_MEMCPY(d, s, n) accel__memcpy((d), (s), (n))
#endif
#ifndef ACCEL_MEMSET
#define ACCEL_MEMSET(d, v, n) accel__memset((d), (v), (n))
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================================================
 * SECTION: common (implementation) @common
 * ============================================================================================ */
/* -------------------------------------------------------- @common.status: status strings */
ACCELDEF const char *accel_status_str(accel_status s)
{
#ifdef ACCEL_NO_STATUS_STRINGS
    (void)s;
    return "";
#else
#if defined(ACCEL_NO_TSP1) || defined(ACCEL_NO_EDGETPU) || defined(ACCEL_NO_REFSI) || \
    defined(ACCEL_NO_ANE) || defined(ACCEL_NO_MAC) || defined(ACCEL_NO_TFLITE)
    switch ((int)s) { /* a removed section's codes have no case */
#else
    switch (s) { /* full build: -Wswitch proves every code has a string */
#endif
    case ACCEL_OK: return "ACCEL_OK: success";
    case ACCEL_E_NULL: return "ACCEL_E_NULL: a required pointer was NULL";
    case ACCEL_E_ZERO_LENGTH: return "ACCEL_E_ZERO_LENGTH: length or count is zero";
    case ACCEL_E_TOO_LONG: return "ACCEL_E_TOO_LONG: length exceeds the allowed maximum";
    case ACCEL_E_BUFFER_TOO_SMALL: return "ACCEL_E_BUFFER_TOO_SMALL: output buffer too small";
    case ACCEL_E_TRUNCATED: return "ACCEL_E_TRUNCATED: input ended early";
    case ACCEL_E_FULL: return "ACCEL_E_FULL: no room; nothing stored";
    case ACCEL_E_EMPTY: return "ACCEL_E_EMPTY: nothing to take";
    case ACCEL_E_CLOSED: return "ACCEL_E_CLOSED: device or port not open";
    case ACCEL_E_TIMEOUT: return "ACCEL_E_TIMEOUT: deadline passed";
    case ACCEL_E_UNSUPPORTED: return "ACCEL_E_UNSUPPORTED: not supported by port";
    case ACCEL_E_IO: return "ACCEL_E_IO: bus or OS I/O error";
    case ACCEL_E_ARG: return "ACCEL_E_ARG: argument out of range";
    case ACCEL_E_BUSY: return "ACCEL_E_BUSY: busy";
    case ACCEL_E_STATE: return "ACCEL_E_STATE: not valid in the current state";
    case ACCEL_E_CRC: return "ACCEL_E_CRC: checksum mismatch";
    case ACCEL_E_MALFORMED: return "ACCEL_E_MALFORMED: input violates its format";
    case ACCEL_E_NO_DEVICE: return "ACCEL_E_NO_DEVICE: no such device";
    case ACCEL_E_ACCESS: return "ACCEL_E_ACCESS: permission denied";
    case ACCEL_E_OVERFLOW: return "ACCEL_E_OVERFLOW: arithmetic overflow";
    case ACCEL_E_STALL: return "ACCEL_E_STALL: USB endpoint stalled or request refused";
    case ACCEL_E_ALIGN: return "ACCEL_E_ALIGN: misaligned address or size";
    case ACCEL_E_FAULT: return "ACCEL_E_FAULT: fault injected by the simulator";
    case ACCEL_BRIDGE_E_CAPTURE_END: return "ACCEL_BRIDGE_E_CAPTURE_END: the capture has no more exchanges";
    case ACCEL_BRIDGE_E_DIVERGED: return "ACCEL_BRIDGE_E_DIVERGED: request differs from the capture";
    case ACCEL_BRIDGE_E_NO_SESSION: return "ACCEL_BRIDGE_E_NO_SESSION: the bridge device restarted or saw no hello";
    case ACCEL_BRIDGE_E_VERSION: return "ACCEL_BRIDGE_E_VERSION: the far end speaks another bridge protocol version";
    case ACCEL_BRIDGE_E_LINK_TIMEOUT: return "ACCEL_BRIDGE_E_LINK_TIMEOUT: no answer over the bridge link (request may or may not have run)";
#ifndef ACCEL_NO_TSP1 /* a removed section takes its strings along */
    /* tsp1 strings */
    case ACCEL_E_TSP1_ERR_ARG: return "ACCEL_E_TSP1_ERR_ARG: device reported ERR_ARG";
    case ACCEL_E_TSP1_ERR_BUSY: return "ACCEL_E_TSP1_ERR_BUSY: device reported ERR_BUSY (network active)";
    case ACCEL_E_TSP1_ERR_LEN: return "ACCEL_E_TSP1_ERR_LEN: device reported ERR_LEN";
    case ACCEL_E_TSP1_ERR_MEM: return "ACCEL_E_TSP1_ERR_MEM: device reported ERR_MEM (memory/NVM)";
    case ACCEL_E_TSP1_ERR_CRYPT: return "ACCEL_E_TSP1_ERR_CRYPT: device reported ERR_CRYPT (image verification)";
    case ACCEL_E_TSP1_ERR_CHECKSUM: return "ACCEL_E_TSP1_ERR_CHECKSUM: device reported ERR_CHECKSUM";
    case ACCEL_E_TSP1_ERR_FRAMING: return "ACCEL_E_TSP1_ERR_FRAMING: device reported ERR_FRAMING";
    case ACCEL_E_TSP1_DISCARDED: return "ACCEL_E_TSP1_DISCARDED: command did not run (discarded by the device)";
    case ACCEL_E_TSP1_UNKNOWN_OUTCOME: return "ACCEL_E_TSP1_UNKNOWN_OUTCOME: the driver cannot know whether the command ran";
    case ACCEL_E_TSP1_RESPONSE_LOST: return "ACCEL_E_TSP1_RESPONSE_LOST: command ran, its response was lost";
    case ACCEL_E_TSP1_ERROR_STATE: return "ACCEL_E_TSP1_ERROR_STATE: device command queue in error state";
    case ACCEL_E_TSP1_MASK: return "ACCEL_E_TSP1_MASK: mask selects an unknown network slot";
    case ACCEL_E_TSP1_ASLEEP: return "ACCEL_E_TSP1_ASLEEP: device in deep sleep";
    case ACCEL_E_TSP1_UNEXPECTED: return "ACCEL_E_TSP1_UNEXPECTED: unexpected response id";
    case ACCEL_E_TSP1_ROM: return "ACCEL_E_TSP1_ROM: device booted into its ROM bootloader (no valid firmware)";
#endif

#ifndef ACCEL_NO_EDGETPU /* a removed section takes its strings along */
    /* edgetpu strings */
    case ACCEL_E_EDGETPU_FATAL: return "ACCEL_E_EDGETPU_FATAL: Edge TPU raised a fatal error interrupt";
    case ACCEL_E_EDGETPU_EVENT: return "ACCEL_E_EDGETPU_EVENT: Edge TPU event with an unexpected tag";
    case ACCEL_E_EDGETPU_NO_TOKEN: return "ACCEL_E_EDGETPU_NO_TOKEN: parameter-caching executable has no token";
    case ACCEL_E_EDGETPU_DFU: return "ACCEL_E_EDGETPU_DFU: DFU error status or unexpected DFU state";
    case ACCEL_E_EDGETPU_VERIFY: return "ACCEL_E_EDGETPU_VERIFY: uploaded firmware differs from the image";
#endif

#ifndef ACCEL_NO_REFSI /* a removed section takes its strings along */
    /* refsi strings */
    case ACCEL_E_REFSI_RESERVED: return "ACCEL_E_REFSI_RESERVED: header bits 7:0 not zero";
    case ACCEL_E_REFSI_PACKET_ID: return "ACCEL_E_REFSI_PACKET_ID: header packet id not 3";
    case ACCEL_E_REFSI_ODD_COUNT: return "ACCEL_E_REFSI_ODD_COUNT: header count is odd";
    case ACCEL_E_REFSI_OPCODE: return "ACCEL_E_REFSI_OPCODE: unknown opcode";
    case ACCEL_E_REFSI_PAYLOAD_COUNT: return "ACCEL_E_REFSI_PAYLOAD_COUNT: payload count wrong for the opcode";
    case ACCEL_E_REFSI_OVERRUN: return "ACCEL_E_REFSI_OVERRUN: payload runs past the buffer end";
    case ACCEL_E_REFSI_PARTIAL_CHUNK: return "ACCEL_E_REFSI_PARTIAL_CHUNK: buffer ends inside a 64-bit chunk";
    case ACCEL_E_REFSI_INLINE_RESERVED: return "ACCEL_E_REFSI_INLINE_RESERVED: unused inline bits set";
    case ACCEL_E_REFSI_REG: return "ACCEL_E_REFSI_REG: CMP register index >= 40";
    case ACCEL_E_REFSI_NARGS: return "ACCEL_E_REFSI_NARGS: more than 7 kernel arguments";
    case ACCEL_E_REFSI_ADDR32: return "ACCEL_E_REFSI_ADDR32: STORE_IMM64 address above 32 bits";
    case ACCEL_E_REFSI_SRC_ALIGN: return "ACCEL_E_REFSI_SRC_ALIGN: COPY_MEM64 source not 8-byte aligned";
    case ACCEL_E_REFSI_MAX_HARTS: return "ACCEL_E_REFSI_MAX_HARTS: MAX_HARTS above 255";
    case ACCEL_E_REFSI_CACHE_FLAGS: return "ACCEL_E_REFSI_CACHE_FLAGS: unknown SYNC_CACHE flags";
    case ACCEL_E_REFSI_FIELD_RANGE: return "ACCEL_E_REFSI_FIELD_RANGE: register field out of range";
    case ACCEL_E_REFSI_REG_RESERVED: return "ACCEL_E_REFSI_REG_RESERVED: register reserved bits set";
    case ACCEL_E_REFSI_WINDOW_BOUNDS: return "ACCEL_E_REFSI_WINDOW_BOUNDS: access crosses a window edge";
    case ACCEL_E_REFSI_WINDOW_PERM: return "ACCEL_E_REFSI_WINDOW_PERM: window permissions forbid the access";
    case ACCEL_E_REFSI_KUB_RANGE: return "ACCEL_E_REFSI_KUB_RANGE: KARGS/TSD range outside the KUB";
    case ACCEL_E_REFSI_KTB_SIZE: return "ACCEL_E_REFSI_KTB_SIZE: TSD larger than the KTB area";
    case ACCEL_E_REFSI_INSTANCES: return "ACCEL_E_REFSI_INSTANCES: too many instances";
#endif

#ifndef ACCEL_NO_ANE /* a removed section takes its strings along */
    /* ane strings */
    case ACCEL_E_ANE_QUEUE: return "ACCEL_E_ANE_QUEUE: task-queue id must be 0..7";
    case ACCEL_E_ANE_NID: return "ACCEL_E_ANE_NID: network id must fit 8 bits";
    case ACCEL_E_ANE_BAR_COUNT: return "ACCEL_E_ANE_BAR_COUNT: at most 32 BAR words";
    case ACCEL_E_ANE_TD_SIZE: return "ACCEL_E_ANE_TD_SIZE: TD size must be a multiple of 4 in 4..0x40000";
    case ACCEL_E_ANE_TD_COUNT: return "ACCEL_E_ANE_TD_COUNT: TD count must be 1..0xFFFF";
    case ACCEL_E_ANE_QUEUE_BUSY: return "ACCEL_E_ANE_QUEUE_BUSY: task queue already in use";
    case ACCEL_E_ANE_ID: return "ACCEL_E_ANE_ID: command id outside its id space or family";
    case ACCEL_E_ANE_UNSUPPORTED_CMD: return "ACCEL_E_ANE_UNSUPPORTED_CMD: id not on the exec-loop fast path: firmware panics";
    case ACCEL_E_ANE_DIRECTION: return "ACCEL_E_ANE_DIRECTION: id flows the other way (host vs notification)";
    case ACCEL_E_ANE_PRIORITY: return "ACCEL_E_ANE_PRIORITY: fwPriority < 8 violated";
    case ACCEL_E_ANE_PRIORITY_BAND: return "ACCEL_E_ANE_PRIORITY_BAND: realtime band 0..1 not admitted here (2..7)";
    case ACCEL_E_ANE_PROGRAM_ID: return "ACCEL_E_ANE_PROGRAM_ID: programId >= 144 (or < -1 in a header)";
    case ACCEL_E_ANE_PROCEDURE_ID: return "ACCEL_E_ANE_PROCEDURE_ID: procId >= 288";
    case ACCEL_E_ANE_PROCESS_ID: return "ACCEL_E_ANE_PROCESS_ID: processId < -1 (or < 0 where one is required)";
    case ACCEL_E_ANE_MSG_SIZE: return "ACCEL_E_ANE_MSG_SIZE: maxCmdBufSize >= hdr + size, or container size";
    case ACCEL_E_ANE_OUTPUT_SETS: return "ACCEL_E_ANE_OUTPUT_SETS: nbrOfOutputBufferSets == 1 violated";
    case ACCEL_E_ANE_TD_PARTITIONS: return "ACCEL_E_ANE_TD_PARTITIONS: 1 == nbrOfTdPartition violated";
    case ACCEL_E_ANE_EVENT_MASKS: return "ACCEL_E_ANE_EVENT_MASKS: exactly one event mask violated";
    case ACCEL_E_ANE_CUSTOM_BARS: return "ACCEL_E_ANE_CUSTOM_BARS: nbrOfCustomBars <= 32 violated";
    case ACCEL_E_ANE_BAR_TYPE: return "ACCEL_E_ANE_BAR_TYPE: bar type GENERIC and config HW_32BIT violated";
    case ACCEL_E_ANE_BAR_ID: return "ACCEL_E_ANE_BAR_ID: barId < 32 violated";
    case ACCEL_E_ANE_EXEC_ORDER: return "ACCEL_E_ANE_EXEC_ORDER: 0 < nbrOfCustomExecuteOrder <= 128 violated";
    case ACCEL_E_ANE_EXEC_ORDER_OFFSET: return "ACCEL_E_ANE_EXEC_ORDER_OFFSET: callSize <= offset, offset + 4n <= container";
    case ACCEL_E_ANE_SIGNAL_EVENTS: return "ACCEL_E_ANE_SIGNAL_EVENTS: 0 < nbrOfSignalEvents <= 16 violated";
    case ACCEL_E_ANE_NO_EVENTS: return "ACCEL_E_ANE_NO_EVENTS: nbrOfWaitEvents + nbrOfSignalEvents > 0 violated";
    case ACCEL_E_ANE_SUBNET_ORDER: return "ACCEL_E_ANE_SUBNET_ORDER: 0 == bSubNetworkCustomExecuteOrder violated";
    case ACCEL_E_ANE_SHARED_EVENTS: return "ACCEL_E_ANE_SHARED_EVENTS: sharedEventsActiveNbr < 2 violated";
    case ACCEL_E_ANE_VARIANT: return "ACCEL_E_ANE_VARIANT: field set that belongs to another call variant";
    case ACCEL_E_ANE_STATS: return "ACCEL_E_ANE_STATS: stats buffer/size: both 0, or size >= 0x4c";
    case ACCEL_E_ANE_INPUT_BUFFERS: return "ACCEL_E_ANE_INPUT_BUFFERS: nbrOfInputBuffers <= 16 violated";
    case ACCEL_E_ANE_REQUESTS_IN_LIST: return "ACCEL_E_ANE_REQUESTS_IN_LIST: 1 == nbrOfAneRequestInList violated";
    case ACCEL_E_ANE_CHAIN_BUF: return "ACCEL_E_ANE_CHAIN_BUF: chained buffer: OutputBuffer type, set id < sets";
    case ACCEL_E_ANE_CHAIN_ADDR: return "ACCEL_E_ANE_CHAIN_ADDR: chained buffer address above 4 GiB";
    case ACCEL_E_ANE_BUF_COUNT: return "ACCEL_E_ANE_BUF_COUNT: bufNbr == 1 + numIoBuffers violated";
    case ACCEL_E_ANE_PREMAP: return "ACCEL_E_ANE_PREMAP: premap: one op, one buffer, non-zero addr/size";
    case ACCEL_E_ANE_REG_VALUE: return "ACCEL_E_ANE_REG_VALUE: property write with regValue 0";
    case ACCEL_E_ANE_RPC_LENGTH: return "ACCEL_E_ANE_RPC_LENGTH: back-channel payload > 0x800000";
    case ACCEL_E_ANE_RPC_MAGIC: return "ACCEL_E_ANE_RPC_MAGIC: back-channel magic != 0x55aa55aa";
    case ACCEL_E_ANE_FORCE_DISABLE: return "ACCEL_E_ANE_FORCE_DISABLE: force-disable admitted only when set true";
    case ACCEL_E_ANE_TQ_RANGE: return "ACCEL_E_ANE_TQ_RANGE: reset range not 1 <= first <= last <= 255";
    case ACCEL_E_ANE_INVARIANT: return "ACCEL_E_ANE_INVARIANT: event in PAUSE: a firmware invariant (panic)";
    case ACCEL_E_ANE_NOT_RUNNING: return "ACCEL_E_ANE_NOT_RUNNING: call to a process that is not running: dropped";
    case ACCEL_E_ANE_HANDLE: return "ACCEL_E_ANE_HANDLE: cache handle unknown or in the wrong state: dropped";
    case ACCEL_E_ANE_TIMESTAMP: return "ACCEL_E_ANE_TIMESTAMP: trigger timestamp not strictly increasing";
    case ACCEL_E_ANE_CR_DISABLED: return "ACCEL_E_ANE_CR_DISABLED: cache requests force-disabled";
    case ACCEL_E_ANE_NOT_READY: return "ACCEL_E_ANE_NOT_READY: channel not ready (recovery in progress)";
    case ACCEL_E_ANE_HANDSHAKE: return "ACCEL_E_ANE_HANDSHAKE: bring-up handshake out of order or wrong magic";
    case ACCEL_E_ANE_STATS_MAGIC: return "ACCEL_E_ANE_STATS_MAGIC: statistics header magic is not 0x0101";
#endif

#ifndef ACCEL_NO_MAC /* a removed section takes its strings along */
    /* mac strings */
    case ACCEL_E_MAC_DTYPE: return "ACCEL_E_MAC_DTYPE: dtype is not int8 or uint8";
    case ACCEL_E_MAC_ROUNDING: return "ACCEL_E_MAC_ROUNDING: unknown rounding mode";
    case ACCEL_E_MAC_SHIFT: return "ACCEL_E_MAC_SHIFT: shift outside -31..+31 (single rounding -31..+30)";
    case ACCEL_E_MAC_MULTIPLIER: return "ACCEL_E_MAC_MULTIPLIER: negative quantized multiplier";
    case ACCEL_E_MAC_OFFSET: return "ACCEL_E_MAC_OFFSET: offset or zero point out of range for the type";
    case ACCEL_E_MAC_ACTIVATION: return "ACCEL_E_MAC_ACTIVATION: activation clamp out of range or min > max";
    case ACCEL_E_MAC_CHANNELS: return "ACCEL_E_MAC_CHANNELS: multiplier, shift or bias array shorter than the channels";
    case ACCEL_E_MAC_SHAPE: return "ACCEL_E_MAC_SHAPE: shape too large or inconsistent";
    case ACCEL_E_MAC_STRIDE: return "ACCEL_E_MAC_STRIDE: stride is 0";
    case ACCEL_E_MAC_GROUPS: return "ACCEL_E_MAC_GROUPS: channels inconsistent with groups or depth multiplier";
    case ACCEL_E_MAC_EMPTY_WINDOW: return "ACCEL_E_MAC_EMPTY_WINDOW: pool window has no in-image tap";
    case ACCEL_E_MAC_DEPTH: return "ACCEL_E_MAC_DEPTH: depth above the exact int32 limit";
#endif
#ifndef ACCEL_NO_TFLITE /* a removed section takes its strings along */
    case ACCEL_E_TFLITE_VERSION: return "ACCEL_E_TFLITE_VERSION: model schema version is not 3";
    case ACCEL_E_TFLITE_SUBGRAPH: return "ACCEL_E_TFLITE_SUBGRAPH: no usable subgraph";
    case ACCEL_E_TFLITE_TENSOR_INDEX: return "ACCEL_E_TFLITE_TENSOR_INDEX: tensor index out of range";
    case ACCEL_E_TFLITE_SHAPE: return "ACCEL_E_TFLITE_SHAPE: bad tensor shape for the model or operator";
    case ACCEL_E_TFLITE_TYPE: return "ACCEL_E_TFLITE_TYPE: unknown or mismatched tensor type";
    case ACCEL_E_TFLITE_BUFFER: return "ACCEL_E_TFLITE_BUFFER: bad buffer index or data size";
    case ACCEL_E_TFLITE_QUANT: return "ACCEL_E_TFLITE_QUANT: bad or missing quantization";
    case ACCEL_E_TFLITE_OPCODE: return "ACCEL_E_TFLITE_OPCODE: bad operator code";
    case ACCEL_E_TFLITE_OPTIONS: return "ACCEL_E_TFLITE_OPTIONS: bad operator options";
    case ACCEL_E_TFLITE_GRAPH: return "ACCEL_E_TFLITE_GRAPH: tensor read before written or written twice";
    case ACCEL_E_TFLITE_ARITY: return "ACCEL_E_TFLITE_ARITY: operator input or output missing";
#endif

    case ACCEL_STATUS_MIN_: break;
    }
    return "?";
#endif
}

/* -------------------------------------------------------- @common.bytes: byte order */
ACCELDEF uint16_t accel_load_u16le(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] | ((unsigned)p[1] << 8));
}
ACCELDEF uint16_t accel_load_u16be(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[1] | ((unsigned)p[0] << 8));
}
ACCELDEF uint32_t accel_load_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}
ACCELDEF uint32_t accel_load_u32be(const uint8_t *p)
{
    return (uint32_t)p[3] | ((uint32_t)p[2] << 8) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[0] << 24);
}
ACCELDEF uint64_t accel_load_u64le(const uint8_t *p)
{
    return (uint64_t)accel_load_u32le(p) | ((uint64_t)accel_load_u32le(p + 4) << 32);
}
ACCELDEF uint64_t accel_load_u64be(const uint8_t *p)
{
    return (uint64_t)accel_load_u32be(p + 4) | ((uint64_t)accel_load_u32be(p) << 32);
}
ACCELDEF void accel_store_u16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}
ACCELDEF void accel_store_u16be(uint8_t *p, uint16_t v)
{
    p[1] = (uint8_t)(v & 0xFFu);
    p[0] = (uint8_t)(v >> 8);
}
ACCELDEF void accel_store_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}
ACCELDEF void accel_store_u32be(uint8_t *p, uint32_t v)
{
    p[3] = (uint8_t)(v & 0xFFu);
    p[2] = (uint8_t)((v >> 8) & 0xFFu);
    p[1] = (uint8_t)((v >> 16) & 0xFFu);
    p[0] = (uint8_t)(v >> 24);
}
ACCELDEF void accel_store_u64le(uint8_t *p, uint64_t v)
{
    accel_store_u32le(p, (uint32_t)(v & 0xFFFFFFFFu));
    accel_store_u32le(p + 4, (uint32_t)(v >> 32));
}
ACCELDEF void accel_store_u64be(uint8_t *p, uint64_t v)
{
    accel_store_u32be(p + 4, (uint32_t)(v & 0xFFFFFFFFu));
    accel_store_u32be(p, (uint32_t)(v >> 32));
}

/* -------------------------------------------------------- @common.reader: reader */
ACCELDEF accel_status accel_reader_init(accel_reader *r, const void *buf, size_t len)
{
    if (!r) return ACCEL_E_NULL;
    r->buf = (const uint8_t *)buf;
    r->len = buf ? len : 0;
    r->pos = 0;
    r->err = (buf || len == 0) ? ACCEL_OK : ACCEL_E_NULL;
    return r->err;
}

ACCELDEF size_t accel_reader_remaining(const accel_reader *r)
{
    return (r && r->pos <= r->len) ? r->len - r->pos : 0;
}

/* Returns a pointer to n readable bytes and advances, or NULL (and sets the sticky error). */
static const uint8_t *accel__reader_take(accel_reader *r, size_t n)
{
    const uint8_t *p;
    ACCEL_ASSERT(r != NULL); /* every caller has refused a NULL reader */
    if (r->err != ACCEL_OK) return NULL;
    if (n > r->len - r->pos) {
        r->err = ACCEL_E_TRUNCATED;
        return NULL;
    }
    p = r->buf + r->pos;
    r->pos += n;
    return p;
}

#define ACCEL__READ_FN(name, type, size, load)                      \
    ACCELDEF accel_status name(accel_reader *r, type *out) /* NOLINT(bugprone-macro-parentheses): a type */ \
    {                                                               \
        const uint8_t *p;                                           \
        if (!r) return ACCEL_E_NULL;                                \
        if (!out) return ACCEL_E_NULL;                              \
        p = accel__reader_take(r, size);                            \
        if (!p) return r->err;                                      \
        *out = load(p);                                             \
        return ACCEL_OK;                                            \
    }
static uint8_t accel__load_u8(const uint8_t *p) { return p[0]; }
ACCEL__READ_FN(accel_read_u8, uint8_t, 1, accel__load_u8)
ACCEL__READ_FN(accel_read_u16le, uint16_t, 2, accel_load_u16le)
ACCEL__READ_FN(accel_read_u16be, uint16_t, 2, accel_load_u16be)
ACCEL__READ_FN(accel_read_u32le, uint32_t, 4, accel_load_u32le)
ACCEL__READ_FN(accel_read_u32be, uint32_t, 4, accel_load_u32be)
ACCEL__READ_FN(accel_read_u64le, uint64_t, 8, accel_load_u64le)
ACCEL__READ_FN(accel_read_u64be, uint64_t, 8, accel_load_u64be)
#undef ACCEL__READ_FN

ACCELDEF accel_status accel_read_bytes(accel_reader *r, void *dst, size_t n)
{
    const uint8_t *p;
    if (!r) return ACCEL_E_NULL;
    if (!dst && n) return ACCEL_E_NULL;
    p = accel__reader_take(r, n);
    if (!p) return r->err;
    if (n) ACCEL_MEMCPY(dst, p, n);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_read_view(accel_reader *r, const uint8_t **out, size_t n)
{
    const uint8_t *p;
    if (!r || !out) return ACCEL_E_NULL;
    p = accel__reader_take(r, n);
    if (!p) return r->err;
    *out = p;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_reader_skip(accel_reader *r, size_t n)
{
    if (!r) return ACCEL_E_NULL;
    return accel__reader_take(r, n) ? ACCEL_OK : r->err;
}

ACCELDEF accel_status accel_reader_seek(accel_reader *r, size_t pos)
{
    if (!r) return ACCEL_E_NULL;
    if (r->err != ACCEL_OK) return r->err;
    if (pos > r->len) return r->err = ACCEL_E_TRUNCATED;
    r->pos = pos;
    return ACCEL_OK;
}

/* -------------------------------------------------------- @common.writer: writer */
ACCELDEF accel_status accel_writer_init(accel_writer *w, void *buf, size_t cap)
{
    if (!w) return ACCEL_E_NULL;
    w->buf = (uint8_t *)buf;
    w->cap = buf ? cap : 0;
    w->pos = 0;
    w->err = (buf || cap == 0) ? ACCEL_OK : ACCEL_E_NULL;
    return w->err;
}

ACCELDEF size_t accel_writer_remaining(const accel_writer *w)
{
    return (w && w->pos <= w->cap) ? w->cap - w->pos : 0;
}

static uint8_t *accel__writer_take(accel_writer *w, size_t n)
{
    uint8_t *p;
    if (w->err != ACCEL_OK) return NULL;
    if (n > w->cap - w->pos) {
        w->err = ACCEL_E_BUFFER_TOO_SMALL;
        return NULL;
    }
    p = w->buf + w->pos;
    w->pos += n;
    return p;
}

ACCELDEF accel_status accel_write_u8(accel_writer *w, uint8_t v)
{
    uint8_t *p;
    if (!w) return ACCEL_E_NULL;
    p = accel__writer_take(w, 1);
    if (!p) return w->err;
    p[0] = v;
    return ACCEL_OK;
}

#define ACCEL__WRITE_FN(name, type, size, store)                   \
    ACCELDEF accel_status name(accel_writer *w, type v)            \
    {                                                              \
        uint8_t *p;                                                \
        if (!w) return ACCEL_E_NULL;                               \
        p = accel__writer_take(w, size);                           \
        if (!p) return w->err;                                     \
        store(p, v);                                               \
        return ACCEL_OK;                                           \
    }
ACCEL__WRITE_FN(accel_write_u16le, uint16_t, 2, accel_store_u16le)
ACCEL__WRITE_FN(accel_write_u16be, uint16_t, 2, accel_store_u16be)
ACCEL__WRITE_FN(accel_write_u32le, uint32_t, 4, accel_store_u32le)
ACCEL__WRITE_FN(accel_write_u32be, uint32_t, 4, accel_store_u32be)
ACCEL__WRITE_FN(accel_write_u64le, uint64_t, 8, accel_store_u64le)
ACCEL__WRITE_FN(accel_write_u64be, uint64_t, 8, accel_store_u64be)
#undef ACCEL__WRITE_FN

ACCELDEF accel_status accel_write_bytes(accel_writer *w, const void *src, size_t n)
{
    uint8_t *p;
    if (!w) return ACCEL_E_NULL;
    if (!src && n) return ACCEL_E_NULL;
    p = accel__writer_take(w, n);
    if (!p) return w->err;
    if (n) ACCEL_MEMCPY(p, src, n);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_write_fill(accel_writer *w, uint8_t v, size_t n)
{
    uint8_t *p;
    if (!w) return ACCEL_E_NULL;
    p = accel__writer_take(w, n);
    if (!p) return w->err;
    if (n) ACCEL_MEMSET(p, v, n);
    return ACCEL_OK;
}

/* -------------------------------------------------------- @common.crc32: CRC-32 */
/* crc32 tables: generated by scripts/gen_crc32_tables.py (do not edit by hand; --update rewrites
 * this block); tests/test_common.c checks every entry and constant. */
#if ACCEL_CRC32_SIMD != 3 /* the AArch64 CRC32 instructions need no table */
#if ACCEL_CRC32_IMPL == ACCEL_CRC32_NIBBLE
static const uint32_t accel__crc32_nibble[16] = {
    0x00000000UL, 0x1DB71064UL, 0x3B6E20C8UL, 0x26D930ACUL,
    0x76DC4190UL, 0x6B6B51F4UL, 0x4DB26158UL, 0x5005713CUL,
    0xEDB88320UL, 0xF00F9344UL, 0xD6D6A3E8UL, 0xCB61B38CUL,
    0x9B64C2B0UL, 0x86D3D2D4UL, 0xA00AE278UL, 0xBDBDF21CUL,
};
#elif ACCEL_CRC32_IMPL >= ACCEL_CRC32_TABLE256
#if ACCEL_CRC32_IMPL == ACCEL_CRC32_BRAID && ACCEL_CRC32_SIMD != 1 && ACCEL_CRC32_SIMD != 2
#define ACCEL__CRC32_BRAID 1 /* (the x86 folding takes every input the braid would) */
#else
#define ACCEL__CRC32_BRAID 0
#endif
/* Row k is the CRC register after one byte value and k zero bytes. Row 0 is the
 * byte-at-a-time table; slicing-by-8 adds rows 1-7; the braid adds, as rows 8-15, the rows
 * for 24-31 zero bytes (a byte's jump to the same lane of the next 32-byte braid row). */
#if ACCEL__CRC32_BRAID
#define ACCEL__CRC32_ROWS 16
#elif ACCEL_CRC32_IMPL >= ACCEL_CRC32_SLICE8
#define ACCEL__CRC32_ROWS 8
#else
#define ACCEL__CRC32_ROWS 1
#endif
static const uint32_t accel__crc32_t8[ACCEL__CRC32_ROWS][256] = {
  {
    0x00000000UL, 0x77073096UL, 0xEE0E612CUL, 0x990951BAUL, 0x076DC419UL, 0x706AF48FUL,
    0xE963A535UL, 0x9E6495A3UL, 0x0EDB8832UL, 0x79DCB8A4UL, 0xE0D5E91EUL, 0x97D2D988UL,
    0x09B64C2BUL, 0x7EB17CBDUL, 0xE7B82D07UL, 0x90BF1D91UL, 0x1DB71064UL, 0x6AB020F2UL,
    0xF3B97148UL, 0x84BE41DEUL, 0x1ADAD47DUL, 0x6DDDE4EBUL, 0xF4D4B551UL, 0x83D385C7UL,
    0x136C9856UL, 0x646BA8C0UL, 0xFD62F97AUL, 0x8A65C9ECUL, 0x14015C4FUL, 0x63066CD9UL,
    0xFA0F3D63UL, 0x8D080DF5UL, 0x3B6E20C8UL, 0x4C69105EUL, 0xD56041E4UL, 0xA2677172UL,
    0x3C03E4D1UL, 0x4B04D447UL, 0xD20D85FDUL, 0xA50AB56BUL, 0x35B5A8FAUL, 0x42B2986CUL,
    0xDBBBC9D6UL, 0xACBCF940UL, 0x32D86CE3UL, 0x45DF5C75UL, 0xDCD60DCFUL, 0xABD13D59UL,
    0x26D930ACUL, 0x51DE003AUL, 0xC8D75180UL, 0xBFD06116UL, 0x21B4F4B5UL, 0x56B3C423UL,
    0xCFBA9599UL, 0xB8BDA50FUL, 0x2802B89EUL, 0x5F058808UL, 0xC60CD9B2UL, 0xB10BE924UL,
    0x2F6F7C87UL, 0x58684C11UL, 0xC1611DABUL, 0xB6662D3DUL, 0x76DC4190UL, 0x01DB7106UL,
    0x98D220BCUL, 0xEFD5102AUL, 0x71B18589UL, 0x06B6B51FUL, 0x9FBFE4A5UL, 0xE8B8D433UL,
    0x7807C9A2UL, 0x0F00F934UL, 0x9609A88EUL, 0xE10E9818UL, 0x7F6A0DBBUL, 0x086D3D2DUL,
    0x91646C97UL, 0xE6635C01UL, 0x6B6B51F4UL, 0x1C6C6162UL, 0x856530D8UL, 0xF262004EUL,
    0x6C0695EDUL, 0x1B01A57BUL, 0x8208F4C1UL, 0xF50FC457UL, 0x65B0D9C6UL, 0x12B7E950UL,
    0x8BBEB8EAUL, 0xFCB9887CUL, 0x62DD1DDFUL, 0x15DA2D49UL, 0x8CD37CF3UL, 0xFBD44C65UL,
    0x4DB26158UL, 0x3AB551CEUL, 0xA3BC0074UL, 0xD4BB30E2UL, 0x4ADFA541UL, 0x3DD895D7UL,
    0xA4D1C46DUL, 0xD3D6F4FBUL, 0x4369E96AUL, 0x346ED9FCUL, 0xAD678846UL, 0xDA60B8D0UL,
    0x44042D73UL, 0x33031DE5UL, 0xAA0A4C5FUL, 0xDD0D7CC9UL, 0x5005713CUL, 0x270241AAUL,
    0xBE0B1010UL, 0xC90C2086UL, 0x5768B525UL, 0x206F85B3UL, 0xB966D409UL, 0xCE61E49FUL,
    0x5EDEF90EUL, 0x29D9C998UL, 0xB0D09822UL, 0xC7D7A8B4UL, 0x59B33D17UL, 0x2EB40D81UL,
    0xB7BD5C3BUL, 0xC0BA6CADUL, 0xEDB88320UL, 0x9ABFB3B6UL, 0x03B6E20CUL, 0x74B1D29AUL,
    0xEAD54739UL, 0x9DD277AFUL, 0x04DB2615UL, 0x73DC1683UL, 0xE3630B12UL, 0x94643B84UL,
    0x0D6D6A3EUL, 0x7A6A5AA8UL, 0xE40ECF0BUL, 0x9309FF9DUL, 0x0A00AE27UL, 0x7D079EB1UL,
    0xF00F9344UL, 0x8708A3D2UL, 0x1E01F268UL, 0x6906C2FEUL, 0xF762575DUL, 0x806567CBUL,
    0x196C3671UL, 0x6E6B06E7UL, 0xFED41B76UL, 0x89D32BE0UL, 0x10DA7A5AUL, 0x67DD4ACCUL,
    0xF9B9DF6FUL, 0x8EBEEFF9UL, 0x17B7BE43UL, 0x60B08ED5UL, 0xD6D6A3E8UL, 0xA1D1937EUL,
    0x38D8C2C4UL, 0x4FDFF252UL, 0xD1BB67F1UL, 0xA6BC5767UL, 0x3FB506DDUL, 0x48B2364BUL,
    0xD80D2BDAUL, 0xAF0A1B4CUL, 0x36034AF6UL, 0x41047A60UL, 0xDF60EFC3UL, 0xA867DF55UL,
    0x316E8EEFUL, 0x4669BE79UL, 0xCB61B38CUL, 0xBC66831AUL, 0x256FD2A0UL, 0x5268E236UL,
    0xCC0C7795UL, 0xBB0B4703UL, 0x220216B9UL, 0x5505262FUL, 0xC5BA3BBEUL, 0xB2BD0B28UL,
    0x2BB45A92UL, 0x5CB36A04UL, 0xC2D7FFA7UL, 0xB5D0CF31UL, 0x2CD99E8BUL, 0x5BDEAE1DUL,
    0x9B64C2B0UL, 0xEC63F226UL, 0x756AA39CUL, 0x026D930AUL, 0x9C0906A9UL, 0xEB0E363FUL,
    0x72076785UL, 0x05005713UL, 0x95BF4A82UL, 0xE2B87A14UL, 0x7BB12BAEUL, 0x0CB61B38UL,
    0x92D28E9BUL, 0xE5D5BE0DUL, 0x7CDCEFB7UL, 0x0BDBDF21UL, 0x86D3D2D4UL, 0xF1D4E242UL,
    0x68DDB3F8UL, 0x1FDA836EUL, 0x81BE16CDUL, 0xF6B9265BUL, 0x6FB077E1UL, 0x18B74777UL,
    0x88085AE6UL, 0xFF0F6A70UL, 0x66063BCAUL, 0x11010B5CUL, 0x8F659EFFUL, 0xF862AE69UL,
    0x616BFFD3UL, 0x166CCF45UL, 0xA00AE278UL, 0xD70DD2EEUL, 0x4E048354UL, 0x3903B3C2UL,
    0xA7672661UL, 0xD06016F7UL, 0x4969474DUL, 0x3E6E77DBUL, 0xAED16A4AUL, 0xD9D65ADCUL,
    0x40DF0B66UL, 0x37D83BF0UL, 0xA9BCAE53UL, 0xDEBB9EC5UL, 0x47B2CF7FUL, 0x30B5FFE9UL,
    0xBDBDF21CUL, 0xCABAC28AUL, 0x53B39330UL, 0x24B4A3A6UL, 0xBAD03605UL, 0xCDD70693UL,
    0x54DE5729UL, 0x23D967BFUL, 0xB3667A2EUL, 0xC4614AB8UL, 0x5D681B02UL, 0x2A6F2B94UL,
    0xB40BBE37UL, 0xC30C8EA1UL, 0x5A05DF1BUL, 0x2D02EF8DUL,
  },
#if ACCEL_CRC32_IMPL >= ACCEL_CRC32_SLICE8
  {
    0x00000000UL, 0x191B3141UL, 0x32366282UL, 0x2B2D53C3UL, 0x646CC504UL, 0x7D77F445UL,
    0x565AA786UL, 0x4F4196C7UL, 0xC8D98A08UL, 0xD1C2BB49UL, 0xFAEFE88AUL, 0xE3F4D9CBUL,
    0xACB54F0CUL, 0xB5AE7E4DUL, 0x9E832D8EUL, 0x87981CCFUL, 0x4AC21251UL, 0x53D92310UL,
    0x78F470D3UL, 0x61EF4192UL, 0x2EAED755UL, 0x37B5E614UL, 0x1C98B5D7UL, 0x05838496UL,
    0x821B9859UL, 0x9B00A918UL, 0xB02DFADBUL, 0xA936CB9AUL, 0xE6775D5DUL, 0xFF6C6C1CUL,
    0xD4413FDFUL, 0xCD5A0E9EUL, 0x958424A2UL, 0x8C9F15E3UL, 0xA7B24620UL, 0xBEA97761UL,
    0xF1E8E1A6UL, 0xE8F3D0E7UL, 0xC3DE8324UL, 0xDAC5B265UL, 0x5D5DAEAAUL, 0x44469FEBUL,
    0x6F6BCC28UL, 0x7670FD69UL, 0x39316BAEUL, 0x202A5AEFUL, 0x0B07092CUL, 0x121C386DUL,
    0xDF4636F3UL, 0xC65D07B2UL, 0xED705471UL, 0xF46B6530UL, 0xBB2AF3F7UL, 0xA231C2B6UL,
    0x891C9175UL, 0x9007A034UL, 0x179FBCFBUL, 0x0E848DBAUL, 0x25A9DE79UL, 0x3CB2EF38UL,
    0x73F379FFUL, 0x6AE848BEUL, 0x41C51B7DUL, 0x58DE2A3CUL, 0xF0794F05UL, 0xE9627E44UL,
    0xC24F2D87UL, 0xDB541CC6UL, 0x94158A01UL, 0x8D0EBB40UL, 0xA623E883UL, 0xBF38D9C2UL,
    0x38A0C50DUL, 0x21BBF44CUL, 0x0A96A78FUL, 0x138D96CEUL, 0x5CCC0009UL, 0x45D73148UL,
    0x6EFA628BUL, 0x77E153CAUL, 0xBABB5D54UL, 0xA3A06C15UL, 0x888D3FD6UL, 0x91960E97UL,
    0xDED79850UL, 0xC7CCA911UL, 0xECE1FAD2UL, 0xF5FACB93UL, 0x7262D75CUL, 0x6B79E61DUL,
    0x4054B5DEUL, 0x594F849FUL, 0x160E1258UL, 0x0F152319UL, 0x243870DAUL, 0x3D23419BUL,
    0x65FD6BA7UL, 0x7CE65AE6UL, 0x57CB0925UL, 0x4ED03864UL, 0x0191AEA3UL, 0x188A9FE2UL,
    0x33A7CC21UL, 0x2ABCFD60UL, 0xAD24E1AFUL, 0xB43FD0EEUL, 0x9F12832DUL, 0x8609B26CUL,
    0xC94824ABUL, 0xD05315EAUL, 0xFB7E4629UL, 0xE2657768UL, 0x2F3F79F6UL, 0x362448B7UL,
    0x1D091B74UL, 0x04122A35UL, 0x4B53BCF2UL, 0x52488DB3UL, 0x7965DE70UL, 0x607EEF31UL,
    0xE7E6F3FEUL, 0xFEFDC2BFUL, 0xD5D0917CUL, 0xCCCBA03DUL, 0x838A36FAUL, 0x9A9107BBUL,
    0xB1BC5478UL, 0xA8A76539UL, 0x3B83984BUL, 0x2298A90AUL, 0x09B5FAC9UL, 0x10AECB88UL,
    0x5FEF5D4FUL, 0x46F46C0EUL, 0x6DD93FCDUL, 0x74C20E8CUL, 0xF35A1243UL, 0xEA412302UL,
    0xC16C70C1UL, 0xD8774180UL, 0x9736D747UL, 0x8E2DE606UL, 0xA500B5C5UL, 0xBC1B8484UL,
    0x71418A1AUL, 0x685ABB5BUL, 0x4377E898UL, 0x5A6CD9D9UL, 0x152D4F1EUL, 0x0C367E5FUL,
    0x271B2D9CUL, 0x3E001CDDUL, 0xB9980012UL, 0xA0833153UL, 0x8BAE6290UL, 0x92B553D1UL,
    0xDDF4C516UL, 0xC4EFF457UL, 0xEFC2A794UL, 0xF6D996D5UL, 0xAE07BCE9UL, 0xB71C8DA8UL,
    0x9C31DE6BUL, 0x852AEF2AUL, 0xCA6B79EDUL, 0xD37048ACUL, 0xF85D1B6FUL, 0xE1462A2EUL,
    0x66DE36E1UL, 0x7FC507A0UL, 0x54E85463UL, 0x4DF36522UL, 0x02B2F3E5UL, 0x1BA9C2A4UL,
    0x30849167UL, 0x299FA026UL, 0xE4C5AEB8UL, 0xFDDE9FF9UL, 0xD6F3CC3AUL, 0xCFE8FD7BUL,
    0x80A96BBCUL, 0x99B25AFDUL, 0xB29F093EUL, 0xAB84387FUL, 0x2C1C24B0UL, 0x350715F1UL,
    0x1E2A4632UL, 0x07317773UL, 0x4870E1B4UL, 0x516BD0F5UL, 0x7A468336UL, 0x635DB277UL,
    0xCBFAD74EUL, 0xD2E1E60FUL, 0xF9CCB5CCUL, 0xE0D7848DUL, 0xAF96124AUL, 0xB68D230BUL,
    0x9DA070C8UL, 0x84BB4189UL, 0x03235D46UL, 0x1A386C07UL, 0x31153FC4UL, 0x280E0E85UL,
    0x674F9842UL, 0x7E54A903UL, 0x5579FAC0UL, 0x4C62CB81UL, 0x8138C51FUL, 0x9823F45EUL,
    0xB30EA79DUL, 0xAA1596DCUL, 0xE554001BUL, 0xFC4F315AUL, 0xD7626299UL, 0xCE7953D8UL,
    0x49E14F17UL, 0x50FA7E56UL, 0x7BD72D95UL, 0x62CC1CD4UL, 0x2D8D8A13UL, 0x3496BB52UL,
    0x1FBBE891UL, 0x06A0D9D0UL, 0x5E7EF3ECUL, 0x4765C2ADUL, 0x6C48916EUL, 0x7553A02FUL,
    0x3A1236E8UL, 0x230907A9UL, 0x0824546AUL, 0x113F652BUL, 0x96A779E4UL, 0x8FBC48A5UL,
    0xA4911B66UL, 0xBD8A2A27UL, 0xF2CBBCE0UL, 0xEBD08DA1UL, 0xC0FDDE62UL, 0xD9E6EF23UL,
    0x14BCE1BDUL, 0x0DA7D0FCUL, 0x268A833FUL, 0x3F91B27EUL, 0x70D024B9UL, 0x69CB15F8UL,
    0x42E6463BUL, 0x5BFD777AUL, 0xDC656BB5UL, 0xC57E5AF4UL, 0xEE530937UL, 0xF7483876UL,
    0xB809AEB1UL, 0xA1129FF0UL, 0x8A3FCC33UL, 0x9324FD72UL,
  },
  {
    0x00000000UL, 0x01C26A37UL, 0x0384D46EUL, 0x0246BE59UL, 0x0709A8DCUL, 0x06CBC2EBUL,
    0x048D7CB2UL, 0x054F1685UL, 0x0E1351B8UL, 0x0FD13B8FUL, 0x0D9785D6UL, 0x0C55EFE1UL,
    0x091AF964UL, 0x08D89353UL, 0x0A9E2D0AUL, 0x0B5C473DUL, 0x1C26A370UL, 0x1DE4C947UL,
    0x1FA2771EUL, 0x1E601D29UL, 0x1B2F0BACUL, 0x1AED619BUL, 0x18ABDFC2UL, 0x1969B5F5UL,
    0x1235F2C8UL, 0x13F798FFUL, 0x11B126A6UL, 0x10734C91UL, 0x153C5A14UL, 0x14FE3023UL,
    0x16B88E7AUL, 0x177AE44DUL, 0x384D46E0UL, 0x398F2CD7UL, 0x3BC9928EUL, 0x3A0BF8B9UL,
    0x3F44EE3CUL, 0x3E86840BUL, 0x3CC03A52UL, 0x3D025065UL, 0x365E1758UL, 0x379C7D6FUL,
    0x35DAC336UL, 0x3418A901UL, 0x3157BF84UL, 0x3095D5B3UL, 0x32D36BEAUL, 0x331101DDUL,
    0x246BE590UL, 0x25A98FA7UL, 0x27EF31FEUL, 0x262D5BC9UL, 0x23624D4CUL, 0x22A0277BUL,
    0x20E69922UL, 0x2124F315UL, 0x2A78B428UL, 0x2BBADE1FUL, 0x29FC6046UL, 0x283E0A71UL,
    0x2D711CF4UL, 0x2CB376C3UL, 0x2EF5C89AUL, 0x2F37A2ADUL, 0x709A8DC0UL, 0x7158E7F7UL,
    0x731E59AEUL, 0x72DC3399UL, 0x7793251CUL, 0x76514F2BUL, 0x7417F172UL, 0x75D59B45UL,
    0x7E89DC78UL, 0x7F4BB64FUL, 0x7D0D0816UL, 0x7CCF6221UL, 0x798074A4UL, 0x78421E93UL,
    0x7A04A0CAUL, 0x7BC6CAFDUL, 0x6CBC2EB0UL, 0x6D7E4487UL, 0x6F38FADEUL, 0x6EFA90E9UL,
    0x6BB5866CUL, 0x6A77EC5BUL, 0x68315202UL, 0x69F33835UL, 0x62AF7F08UL, 0x636D153FUL,
    0x612BAB66UL, 0x60E9C151UL, 0x65A6D7D4UL, 0x6464BDE3UL, 0x662203BAUL, 0x67E0698DUL,
    0x48D7CB20UL, 0x4915A117UL, 0x4B531F4EUL, 0x4A917579UL, 0x4FDE63FCUL, 0x4E1C09CBUL,
    0x4C5AB792UL, 0x4D98DDA5UL, 0x46C49A98UL, 0x4706F0AFUL, 0x45404EF6UL, 0x448224C1UL,
    0x41CD3244UL, 0x400F5873UL, 0x4249E62AUL, 0x438B8C1DUL, 0x54F16850UL, 0x55330267UL,
    0x5775BC3EUL, 0x56B7D609UL, 0x53F8C08CUL, 0x523AAABBUL, 0x507C14E2UL, 0x51BE7ED5UL,
    0x5AE239E8UL, 0x5B2053DFUL, 0x5966ED86UL, 0x58A487B1UL, 0x5DEB9134UL, 0x5C29FB03UL,
    0x5E6F455AUL, 0x5FAD2F6DUL, 0xE1351B80UL, 0xE0F771B7UL, 0xE2B1CFEEUL, 0xE373A5D9UL,
    0xE63CB35CUL, 0xE7FED96BUL, 0xE5B86732UL, 0xE47A0D05UL, 0xEF264A38UL, 0xEEE4200FUL,
    0xECA29E56UL, 0xED60F461UL, 0xE82FE2E4UL, 0xE9ED88D3UL, 0xEBAB368AUL, 0xEA695CBDUL,
    0xFD13B8F0UL, 0xFCD1D2C7UL, 0xFE976C9EUL, 0xFF5506A9UL, 0xFA1A102CUL, 0xFBD87A1BUL,
    0xF99EC442UL, 0xF85CAE75UL, 0xF300E948UL, 0xF2C2837FUL, 0xF0843D26UL, 0xF1465711UL,
    0xF4094194UL, 0xF5CB2BA3UL, 0xF78D95FAUL, 0xF64FFFCDUL, 0xD9785D60UL, 0xD8BA3757UL,
    0xDAFC890EUL, 0xDB3EE339UL, 0xDE71F5BCUL, 0xDFB39F8BUL, 0xDDF521D2UL, 0xDC374BE5UL,
    0xD76B0CD8UL, 0xD6A966EFUL, 0xD4EFD8B6UL, 0xD52DB281UL, 0xD062A404UL, 0xD1A0CE33UL,
    0xD3E6706AUL, 0xD2241A5DUL, 0xC55EFE10UL, 0xC49C9427UL, 0xC6DA2A7EUL, 0xC7184049UL,
    0xC25756CCUL, 0xC3953CFBUL, 0xC1D382A2UL, 0xC011E895UL, 0xCB4DAFA8UL, 0xCA8FC59FUL,
    0xC8C97BC6UL, 0xC90B11F1UL, 0xCC440774UL, 0xCD866D43UL, 0xCFC0D31AUL, 0xCE02B92DUL,
    0x91AF9640UL, 0x906DFC77UL, 0x922B422EUL, 0x93E92819UL, 0x96A63E9CUL, 0x976454ABUL,
    0x9522EAF2UL, 0x94E080C5UL, 0x9FBCC7F8UL, 0x9E7EADCFUL, 0x9C381396UL, 0x9DFA79A1UL,
    0x98B56F24UL, 0x99770513UL, 0x9B31BB4AUL, 0x9AF3D17DUL, 0x8D893530UL, 0x8C4B5F07UL,
    0x8E0DE15EUL, 0x8FCF8B69UL, 0x8A809DECUL, 0x8B42F7DBUL, 0x89044982UL, 0x88C623B5UL,
    0x839A6488UL, 0x82580EBFUL, 0x801EB0E6UL, 0x81DCDAD1UL, 0x8493CC54UL, 0x8551A663UL,
    0x8717183AUL, 0x86D5720DUL, 0xA9E2D0A0UL, 0xA820BA97UL, 0xAA6604CEUL, 0xABA46EF9UL,
    0xAEEB787CUL, 0xAF29124BUL, 0xAD6FAC12UL, 0xACADC625UL, 0xA7F18118UL, 0xA633EB2FUL,
    0xA4755576UL, 0xA5B73F41UL, 0xA0F829C4UL, 0xA13A43F3UL, 0xA37CFDAAUL, 0xA2BE979DUL,
    0xB5C473D0UL, 0xB40619E7UL, 0xB640A7BEUL, 0xB782CD89UL, 0xB2CDDB0CUL, 0xB30FB13BUL,
    0xB1490F62UL, 0xB08B6555UL, 0xBBD72268UL, 0xBA15485FUL, 0xB853F606UL, 0xB9919C31UL,
    0xBCDE8AB4UL, 0xBD1CE083UL, 0xBF5A5EDAUL, 0xBE9834EDUL,
  },
  {
    0x00000000UL, 0xB8BC6765UL, 0xAA09C88BUL, 0x12B5AFEEUL, 0x8F629757UL, 0x37DEF032UL,
    0x256B5FDCUL, 0x9DD738B9UL, 0xC5B428EFUL, 0x7D084F8AUL, 0x6FBDE064UL, 0xD7018701UL,
    0x4AD6BFB8UL, 0xF26AD8DDUL, 0xE0DF7733UL, 0x58631056UL, 0x5019579FUL, 0xE8A530FAUL,
    0xFA109F14UL, 0x42ACF871UL, 0xDF7BC0C8UL, 0x67C7A7ADUL, 0x75720843UL, 0xCDCE6F26UL,
    0x95AD7F70UL, 0x2D111815UL, 0x3FA4B7FBUL, 0x8718D09EUL, 0x1ACFE827UL, 0xA2738F42UL,
    0xB0C620ACUL, 0x087A47C9UL, 0xA032AF3EUL, 0x188EC85BUL, 0x0A3B67B5UL, 0xB28700D0UL,
    0x2F503869UL, 0x97EC5F0CUL, 0x8559F0E2UL, 0x3DE59787UL, 0x658687D1UL, 0xDD3AE0B4UL,
    0xCF8F4F5AUL, 0x7733283FUL, 0xEAE41086UL, 0x525877E3UL, 0x40EDD80DUL, 0xF851BF68UL,
    0xF02BF8A1UL, 0x48979FC4UL, 0x5A22302AUL, 0xE29E574FUL, 0x7F496FF6UL, 0xC7F50893UL,
    0xD540A77DUL, 0x6DFCC018UL, 0x359FD04EUL, 0x8D23B72BUL, 0x9F9618C5UL, 0x272A7FA0UL,
    0xBAFD4719UL, 0x0241207CUL, 0x10F48F92UL, 0xA848E8F7UL, 0x9B14583DUL, 0x23A83F58UL,
    0x311D90B6UL, 0x89A1F7D3UL, 0x1476CF6AUL, 0xACCAA80FUL, 0xBE7F07E1UL, 0x06C36084UL,
    0x5EA070D2UL, 0xE61C17B7UL, 0xF4A9B859UL, 0x4C15DF3CUL, 0xD1C2E785UL, 0x697E80E0UL,
    0x7BCB2F0EUL, 0xC377486BUL, 0xCB0D0FA2UL, 0x73B168C7UL, 0x6104C729UL, 0xD9B8A04CUL,
    0x446F98F5UL, 0xFCD3FF90UL, 0xEE66507EUL, 0x56DA371BUL, 0x0EB9274DUL, 0xB6054028UL,
    0xA4B0EFC6UL, 0x1C0C88A3UL, 0x81DBB01AUL, 0x3967D77FUL, 0x2BD27891UL, 0x936E1FF4UL,
    0x3B26F703UL, 0x839A9066UL, 0x912F3F88UL, 0x299358EDUL, 0xB4446054UL, 0x0CF80731UL,
    0x1E4DA8DFUL, 0xA6F1CFBAUL, 0xFE92DFECUL, 0x462EB889UL, 0x549B1767UL, 0xEC277002UL,
    0x71F048BBUL, 0xC94C2FDEUL, 0xDBF98030UL, 0x6345E755UL, 0x6B3FA09CUL, 0xD383C7F9UL,
    0xC1366817UL, 0x798A0F72UL, 0xE45D37CBUL, 0x5CE150AEUL, 0x4E54FF40UL, 0xF6E89825UL,
    0xAE8B8873UL, 0x1637EF16UL, 0x048240F8UL, 0xBC3E279DUL, 0x21E91F24UL, 0x99557841UL,
    0x8BE0D7AFUL, 0x335CB0CAUL, 0xED59B63BUL, 0x55E5D15EUL, 0x47507EB0UL, 0xFFEC19D5UL,
    0x623B216CUL, 0xDA874609UL, 0xC832E9E7UL, 0x708E8E82UL, 0x28ED9ED4UL, 0x9051F9B1UL,
    0x82E4565FUL, 0x3A58313AUL, 0xA78F0983UL, 0x1F336EE6UL, 0x0D86C108UL, 0xB53AA66DUL,
    0xBD40E1A4UL, 0x05FC86C1UL, 0x1749292FUL, 0xAFF54E4AUL, 0x322276F3UL, 0x8A9E1196UL,
    0x982BBE78UL, 0x2097D91DUL, 0x78F4C94BUL, 0xC048AE2EUL, 0xD2FD01C0UL, 0x6A4166A5UL,
    0xF7965E1CUL, 0x4F2A3979UL, 0x5D9F9697UL, 0xE523F1F2UL, 0x4D6B1905UL, 0xF5D77E60UL,
    0xE762D18EUL, 0x5FDEB6EBUL, 0xC2098E52UL, 0x7AB5E937UL, 0x680046D9UL, 0xD0BC21BCUL,
    0x88DF31EAUL, 0x3063568FUL, 0x22D6F961UL, 0x9A6A9E04UL, 0x07BDA6BDUL, 0xBF01C1D8UL,
    0xADB46E36UL, 0x15080953UL, 0x1D724E9AUL, 0xA5CE29FFUL, 0xB77B8611UL, 0x0FC7E174UL,
    0x9210D9CDUL, 0x2AACBEA8UL, 0x38191146UL, 0x80A57623UL, 0xD8C66675UL, 0x607A0110UL,
    0x72CFAEFEUL, 0xCA73C99BUL, 0x57A4F122UL, 0xEF189647UL, 0xFDAD39A9UL, 0x45115ECCUL,
    0x764DEE06UL, 0xCEF18963UL, 0xDC44268DUL, 0x64F841E8UL, 0xF92F7951UL, 0x41931E34UL,
    0x5326B1DAUL, 0xEB9AD6BFUL, 0xB3F9C6E9UL, 0x0B45A18CUL, 0x19F00E62UL, 0xA14C6907UL,
    0x3C9B51BEUL, 0x842736DBUL, 0x96929935UL, 0x2E2EFE50UL, 0x2654B999UL, 0x9EE8DEFCUL,
    0x8C5D7112UL, 0x34E11677UL, 0xA9362ECEUL, 0x118A49ABUL, 0x033FE645UL, 0xBB838120UL,
    0xE3E09176UL, 0x5B5CF613UL, 0x49E959FDUL, 0xF1553E98UL, 0x6C820621UL, 0xD43E6144UL,
    0xC68BCEAAUL, 0x7E37A9CFUL, 0xD67F4138UL, 0x6EC3265DUL, 0x7C7689B3UL, 0xC4CAEED6UL,
    0x591DD66FUL, 0xE1A1B10AUL, 0xF3141EE4UL, 0x4BA87981UL, 0x13CB69D7UL, 0xAB770EB2UL,
    0xB9C2A15CUL, 0x017EC639UL, 0x9CA9FE80UL, 0x241599E5UL, 0x36A0360BUL, 0x8E1C516EUL,
    0x866616A7UL, 0x3EDA71C2UL, 0x2C6FDE2CUL, 0x94D3B949UL, 0x090481F0UL, 0xB1B8E695UL,
    0xA30D497BUL, 0x1BB12E1EUL, 0x43D23E48UL, 0xFB6E592DUL, 0xE9DBF6C3UL, 0x516791A6UL,
    0xCCB0A91FUL, 0x740CCE7AUL, 0x66B96194UL, 0xDE0506F1UL,
  },
  {
    0x00000000UL, 0x3D6029B0UL, 0x7AC05360UL, 0x47A07AD0UL, 0xF580A6C0UL, 0xC8E08F70UL,
    0x8F40F5A0UL, 0xB220DC10UL, 0x30704BC1UL, 0x0D106271UL, 0x4AB018A1UL, 0x77D03111UL,
    0xC5F0ED01UL, 0xF890C4B1UL, 0xBF30BE61UL, 0x825097D1UL, 0x60E09782UL, 0x5D80BE32UL,
    0x1A20C4E2UL, 0x2740ED52UL, 0x95603142UL, 0xA80018F2UL, 0xEFA06222UL, 0xD2C04B92UL,
    0x5090DC43UL, 0x6DF0F5F3UL, 0x2A508F23UL, 0x1730A693UL, 0xA5107A83UL, 0x98705333UL,
    0xDFD029E3UL, 0xE2B00053UL, 0xC1C12F04UL, 0xFCA106B4UL, 0xBB017C64UL, 0x866155D4UL,
    0x344189C4UL, 0x0921A074UL, 0x4E81DAA4UL, 0x73E1F314UL, 0xF1B164C5UL, 0xCCD14D75UL,
    0x8B7137A5UL, 0xB6111E15UL, 0x0431C205UL, 0x3951EBB5UL, 0x7EF19165UL, 0x4391B8D5UL,
    0xA121B886UL, 0x9C419136UL, 0xDBE1EBE6UL, 0xE681C256UL, 0x54A11E46UL, 0x69C137F6UL,
    0x2E614D26UL, 0x13016496UL, 0x9151F347UL, 0xAC31DAF7UL, 0xEB91A027UL, 0xD6F18997UL,
    0x64D15587UL, 0x59B17C37UL, 0x1E1106E7UL, 0x23712F57UL, 0x58F35849UL, 0x659371F9UL,
    0x22330B29UL, 0x1F532299UL, 0xAD73FE89UL, 0x9013D739UL, 0xD7B3ADE9UL, 0xEAD38459UL,
    0x68831388UL, 0x55E33A38UL, 0x124340E8UL, 0x2F236958UL, 0x9D03B548UL, 0xA0639CF8UL,
    0xE7C3E628UL, 0xDAA3CF98UL, 0x3813CFCBUL, 0x0573E67BUL, 0x42D39CABUL, 0x7FB3B51BUL,
    0xCD93690BUL, 0xF0F340BBUL, 0xB7533A6BUL, 0x8A3313DBUL, 0x0863840AUL, 0x3503ADBAUL,
    0x72A3D76AUL, 0x4FC3FEDAUL, 0xFDE322CAUL, 0xC0830B7AUL, 0x872371AAUL, 0xBA43581AUL,
    0x9932774DUL, 0xA4525EFDUL, 0xE3F2242DUL, 0xDE920D9DUL, 0x6CB2D18DUL, 0x51D2F83DUL,
    0x167282EDUL, 0x2B12AB5DUL, 0xA9423C8CUL, 0x9422153CUL, 0xD3826FECUL, 0xEEE2465CUL,
    0x5CC29A4CUL, 0x61A2B3FCUL, 0x2602C92CUL, 0x1B62E09CUL, 0xF9D2E0CFUL, 0xC4B2C97FUL,
    0x8312B3AFUL, 0xBE729A1FUL, 0x0C52460FUL, 0x31326FBFUL, 0x7692156FUL, 0x4BF23CDFUL,
    0xC9A2AB0EUL, 0xF4C282BEUL, 0xB362F86EUL, 0x8E02D1DEUL, 0x3C220DCEUL, 0x0142247EUL,
    0x46E25EAEUL, 0x7B82771EUL, 0xB1E6B092UL, 0x8C869922UL, 0xCB26E3F2UL, 0xF646CA42UL,
    0x44661652UL, 0x79063FE2UL, 0x3EA64532UL, 0x03C66C82UL, 0x8196FB53UL, 0xBCF6D2E3UL,
    0xFB56A833UL, 0xC6368183UL, 0x74165D93UL, 0x49767423UL, 0x0ED60EF3UL, 0x33B62743UL,
    0xD1062710UL, 0xEC660EA0UL, 0xABC67470UL, 0x96A65DC0UL, 0x248681D0UL, 0x19E6A860UL,
    0x5E46D2B0UL, 0x6326FB00UL, 0xE1766CD1UL, 0xDC164561UL, 0x9BB63FB1UL, 0xA6D61601UL,
    0x14F6CA11UL, 0x2996E3A1UL, 0x6E369971UL, 0x5356B0C1UL, 0x70279F96UL, 0x4D47B626UL,
    0x0AE7CCF6UL, 0x3787E546UL, 0x85A73956UL, 0xB8C710E6UL, 0xFF676A36UL, 0xC2074386UL,
    0x4057D457UL, 0x7D37FDE7UL, 0x3A978737UL, 0x07F7AE87UL, 0xB5D77297UL, 0x88B75B27UL,
    0xCF1721F7UL, 0xF2770847UL, 0x10C70814UL, 0x2DA721A4UL, 0x6A075B74UL, 0x576772C4UL,
    0xE547AED4UL, 0xD8278764UL, 0x9F87FDB4UL, 0xA2E7D404UL, 0x20B743D5UL, 0x1DD76A65UL,
    0x5A7710B5UL, 0x67173905UL, 0xD537E515UL, 0xE857CCA5UL, 0xAFF7B675UL, 0x92979FC5UL,
    0xE915E8DBUL, 0xD475C16BUL, 0x93D5BBBBUL, 0xAEB5920BUL, 0x1C954E1BUL, 0x21F567ABUL,
    0x66551D7BUL, 0x5B3534CBUL, 0xD965A31AUL, 0xE4058AAAUL, 0xA3A5F07AUL, 0x9EC5D9CAUL,
    0x2CE505DAUL, 0x11852C6AUL, 0x562556BAUL, 0x6B457F0AUL, 0x89F57F59UL, 0xB49556E9UL,
    0xF3352C39UL, 0xCE550589UL, 0x7C75D999UL, 0x4115F029UL, 0x06B58AF9UL, 0x3BD5A349UL,
    0xB9853498UL, 0x84E51D28UL, 0xC34567F8UL, 0xFE254E48UL, 0x4C059258UL, 0x7165BBE8UL,
    0x36C5C138UL, 0x0BA5E888UL, 0x28D4C7DFUL, 0x15B4EE6FUL, 0x521494BFUL, 0x6F74BD0FUL,
    0xDD54611FUL, 0xE03448AFUL, 0xA794327FUL, 0x9AF41BCFUL, 0x18A48C1EUL, 0x25C4A5AEUL,
    0x6264DF7EUL, 0x5F04F6CEUL, 0xED242ADEUL, 0xD044036EUL, 0x97E479BEUL, 0xAA84500EUL,
    0x4834505DUL, 0x755479EDUL, 0x32F4033DUL, 0x0F942A8DUL, 0xBDB4F69DUL, 0x80D4DF2DUL,
    0xC774A5FDUL, 0xFA148C4DUL, 0x78441B9CUL, 0x4524322CUL, 0x028448FCUL, 0x3FE4614CUL,
    0x8DC4BD5CUL, 0xB0A494ECUL, 0xF704EE3CUL, 0xCA64C78CUL,
  },
  {
    0x00000000UL, 0xCB5CD3A5UL, 0x4DC8A10BUL, 0x869472AEUL, 0x9B914216UL, 0x50CD91B3UL,
    0xD659E31DUL, 0x1D0530B8UL, 0xEC53826DUL, 0x270F51C8UL, 0xA19B2366UL, 0x6AC7F0C3UL,
    0x77C2C07BUL, 0xBC9E13DEUL, 0x3A0A6170UL, 0xF156B2D5UL, 0x03D6029BUL, 0xC88AD13EUL,
    0x4E1EA390UL, 0x85427035UL, 0x9847408DUL, 0x531B9328UL, 0xD58FE186UL, 0x1ED33223UL,
    0xEF8580F6UL, 0x24D95353UL, 0xA24D21FDUL, 0x6911F258UL, 0x7414C2E0UL, 0xBF481145UL,
    0x39DC63EBUL, 0xF280B04EUL, 0x07AC0536UL, 0xCCF0D693UL, 0x4A64A43DUL, 0x81387798UL,
    0x9C3D4720UL, 0x57619485UL, 0xD1F5E62BUL, 0x1AA9358EUL, 0xEBFF875BUL, 0x20A354FEUL,
    0xA6372650UL, 0x6D6BF5F5UL, 0x706EC54DUL, 0xBB3216E8UL, 0x3DA66446UL, 0xF6FAB7E3UL,
    0x047A07ADUL, 0xCF26D408UL, 0x49B2A6A6UL, 0x82EE7503UL, 0x9FEB45BBUL, 0x54B7961EUL,
    0xD223E4B0UL, 0x197F3715UL, 0xE82985C0UL, 0x23755665UL, 0xA5E124CBUL, 0x6EBDF76EUL,
    0x73B8C7D6UL, 0xB8E41473UL, 0x3E7066DDUL, 0xF52CB578UL, 0x0F580A6CUL, 0xC404D9C9UL,
    0x4290AB67UL, 0x89CC78C2UL, 0x94C9487AUL, 0x5F959BDFUL, 0xD901E971UL, 0x125D3AD4UL,
    0xE30B8801UL, 0x28575BA4UL, 0xAEC3290AUL, 0x659FFAAFUL, 0x789ACA17UL, 0xB3C619B2UL,
    0x35526B1CUL, 0xFE0EB8B9UL, 0x0C8E08F7UL, 0xC7D2DB52UL, 0x4146A9FCUL, 0x8A1A7A59UL,
    0x971F4AE1UL, 0x5C439944UL, 0xDAD7EBEAUL, 0x118B384FUL, 0xE0DD8A9AUL, 0x2B81593FUL,
    0xAD152B91UL, 0x6649F834UL, 0x7B4CC88CUL, 0xB0101B29UL, 0x36846987UL, 0xFDD8BA22UL,
    0x08F40F5AUL, 0xC3A8DCFFUL, 0x453CAE51UL, 0x8E607DF4UL, 0x93654D4CUL, 0x58399EE9UL,
    0xDEADEC47UL, 0x15F13FE2UL, 0xE4A78D37UL, 0x2FFB5E92UL, 0xA96F2C3CUL, 0x6233FF99UL,
    0x7F36CF21UL, 0xB46A1C84UL, 0x32FE6E2AUL, 0xF9A2BD8FUL, 0x0B220DC1UL, 0xC07EDE64UL,
    0x46EAACCAUL, 0x8DB67F6FUL, 0x90B34FD7UL, 0x5BEF9C72UL, 0xDD7BEEDCUL, 0x16273D79UL,
    0xE7718FACUL, 0x2C2D5C09UL, 0xAAB92EA7UL, 0x61E5FD02UL, 0x7CE0CDBAUL, 0xB7BC1E1FUL,
    0x31286CB1UL, 0xFA74BF14UL, 0x1EB014D8UL, 0xD5ECC77DUL, 0x5378B5D3UL, 0x98246676UL,
    0x852156CEUL, 0x4E7D856BUL, 0xC8E9F7C5UL, 0x03B52460UL, 0xF2E396B5UL, 0x39BF4510UL,
    0xBF2B37BEUL, 0x7477E41BUL, 0x6972D4A3UL, 0xA22E0706UL, 0x24BA75A8UL, 0xEFE6A60DUL,
    0x1D661643UL, 0xD63AC5E6UL, 0x50AEB748UL, 0x9BF264EDUL, 0x86F75455UL, 0x4DAB87F0UL,
    0xCB3FF55EUL, 0x006326FBUL, 0xF135942EUL, 0x3A69478BUL, 0xBCFD3525UL, 0x77A1E680UL,
    0x6AA4D638UL, 0xA1F8059DUL, 0x276C7733UL, 0xEC30A496UL, 0x191C11EEUL, 0xD240C24BUL,
    0x54D4B0E5UL, 0x9F886340UL, 0x828D53F8UL, 0x49D1805DUL, 0xCF45F2F3UL, 0x04192156UL,
    0xF54F9383UL, 0x3E134026UL, 0xB8873288UL, 0x73DBE12DUL, 0x6EDED195UL, 0xA5820230UL,
    0x2316709EUL, 0xE84AA33BUL, 0x1ACA1375UL, 0xD196C0D0UL, 0x5702B27EUL, 0x9C5E61DBUL,
    0x815B5163UL, 0x4A0782C6UL, 0xCC93F068UL, 0x07CF23CDUL, 0xF6999118UL, 0x3DC542BDUL,
    0xBB513013UL, 0x700DE3B6UL, 0x6D08D30EUL, 0xA65400ABUL, 0x20C07205UL, 0xEB9CA1A0UL,
    0x11E81EB4UL, 0xDAB4CD11UL, 0x5C20BFBFUL, 0x977C6C1AUL, 0x8A795CA2UL, 0x41258F07UL,
    0xC7B1FDA9UL, 0x0CED2E0CUL, 0xFDBB9CD9UL, 0x36E74F7CUL, 0xB0733DD2UL, 0x7B2FEE77UL,
    0x662ADECFUL, 0xAD760D6AUL, 0x2BE27FC4UL, 0xE0BEAC61UL, 0x123E1C2FUL, 0xD962CF8AUL,
    0x5FF6BD24UL, 0x94AA6E81UL, 0x89AF5E39UL, 0x42F38D9CUL, 0xC467FF32UL, 0x0F3B2C97UL,
    0xFE6D9E42UL, 0x35314DE7UL, 0xB3A53F49UL, 0x78F9ECECUL, 0x65FCDC54UL, 0xAEA00FF1UL,
    0x28347D5FUL, 0xE368AEFAUL, 0x16441B82UL, 0xDD18C827UL, 0x5B8CBA89UL, 0x90D0692CUL,
    0x8DD55994UL, 0x46898A31UL, 0xC01DF89FUL, 0x0B412B3AUL, 0xFA1799EFUL, 0x314B4A4AUL,
    0xB7DF38E4UL, 0x7C83EB41UL, 0x6186DBF9UL, 0xAADA085CUL, 0x2C4E7AF2UL, 0xE712A957UL,
    0x15921919UL, 0xDECECABCUL, 0x585AB812UL, 0x93066BB7UL, 0x8E035B0FUL, 0x455F88AAUL,
    0xC3CBFA04UL, 0x089729A1UL, 0xF9C19B74UL, 0x329D48D1UL, 0xB4093A7FUL, 0x7F55E9DAUL,
    0x6250D962UL, 0xA90C0AC7UL, 0x2F987869UL, 0xE4C4ABCCUL,
  },
  {
    0x00000000UL, 0xA6770BB4UL, 0x979F1129UL, 0x31E81A9DUL, 0xF44F2413UL, 0x52382FA7UL,
    0x63D0353AUL, 0xC5A73E8EUL, 0x33EF4E67UL, 0x959845D3UL, 0xA4705F4EUL, 0x020754FAUL,
    0xC7A06A74UL, 0x61D761C0UL, 0x503F7B5DUL, 0xF64870E9UL, 0x67DE9CCEUL, 0xC1A9977AUL,
    0xF0418DE7UL, 0x56368653UL, 0x9391B8DDUL, 0x35E6B369UL, 0x040EA9F4UL, 0xA279A240UL,
    0x5431D2A9UL, 0xF246D91DUL, 0xC3AEC380UL, 0x65D9C834UL, 0xA07EF6BAUL, 0x0609FD0EUL,
    0x37E1E793UL, 0x9196EC27UL, 0xCFBD399CUL, 0x69CA3228UL, 0x582228B5UL, 0xFE552301UL,
    0x3BF21D8FUL, 0x9D85163BUL, 0xAC6D0CA6UL, 0x0A1A0712UL, 0xFC5277FBUL, 0x5A257C4FUL,
    0x6BCD66D2UL, 0xCDBA6D66UL, 0x081D53E8UL, 0xAE6A585CUL, 0x9F8242C1UL, 0x39F54975UL,
    0xA863A552UL, 0x0E14AEE6UL, 0x3FFCB47BUL, 0x998BBFCFUL, 0x5C2C8141UL, 0xFA5B8AF5UL,
    0xCBB39068UL, 0x6DC49BDCUL, 0x9B8CEB35UL, 0x3DFBE081UL, 0x0C13FA1CUL, 0xAA64F1A8UL,
    0x6FC3CF26UL, 0xC9B4C492UL, 0xF85CDE0FUL, 0x5E2BD5BBUL, 0x440B7579UL, 0xE27C7ECDUL,
    0xD3946450UL, 0x75E36FE4UL, 0xB044516AUL, 0x16335ADEUL, 0x27DB4043UL, 0x81AC4BF7UL,
    0x77E43B1EUL, 0xD19330AAUL, 0xE07B2A37UL, 0x460C2183UL, 0x83AB1F0DUL, 0x25DC14B9UL,
    0x14340E24UL, 0xB2430590UL, 0x23D5E9B7UL, 0x85A2E203UL, 0xB44AF89EUL, 0x123DF32AUL,
    0xD79ACDA4UL, 0x71EDC610UL, 0x4005DC8DUL, 0xE672D739UL, 0x103AA7D0UL, 0xB64DAC64UL,
    0x87A5B6F9UL, 0x21D2BD4DUL, 0xE47583C3UL, 0x42028877UL, 0x73EA92EAUL, 0xD59D995EUL,
    0x8BB64CE5UL, 0x2DC14751UL, 0x1C295DCCUL, 0xBA5E5678UL, 0x7FF968F6UL, 0xD98E6342UL,
    0xE86679DFUL, 0x4E11726BUL, 0xB8590282UL, 0x1E2E0936UL, 0x2FC613ABUL, 0x89B1181FUL,
    0x4C162691UL, 0xEA612D25UL, 0xDB8937B8UL, 0x7DFE3C0CUL, 0xEC68D02BUL, 0x4A1FDB9FUL,
    0x7BF7C102UL, 0xDD80CAB6UL, 0x1827F438UL, 0xBE50FF8CUL, 0x8FB8E511UL, 0x29CFEEA5UL,
    0xDF879E4CUL, 0x79F095F8UL, 0x48188F65UL, 0xEE6F84D1UL, 0x2BC8BA5FUL, 0x8DBFB1EBUL,
    0xBC57AB76UL, 0x1A20A0C2UL, 0x8816EAF2UL, 0x2E61E146UL, 0x1F89FBDBUL, 0xB9FEF06FUL,
    0x7C59CEE1UL, 0xDA2EC555UL, 0xEBC6DFC8UL, 0x4DB1D47CUL, 0xBBF9A495UL, 0x1D8EAF21UL,
    0x2C66B5BCUL, 0x8A11BE08UL, 0x4FB68086UL, 0xE9C18B32UL, 0xD82991AFUL, 0x7E5E9A1BUL,
    0xEFC8763CUL, 0x49BF7D88UL, 0x78576715UL, 0xDE206CA1UL, 0x1B87522FUL, 0xBDF0599BUL,
    0x8C184306UL, 0x2A6F48B2UL, 0xDC27385BUL, 0x7A5033EFUL, 0x4BB82972UL, 0xEDCF22C6UL,
    0x28681C48UL, 0x8E1F17FCUL, 0xBFF70D61UL, 0x198006D5UL, 0x47ABD36EUL, 0xE1DCD8DAUL,
    0xD034C247UL, 0x7643C9F3UL, 0xB3E4F77DUL, 0x1593FCC9UL, 0x247BE654UL, 0x820CEDE0UL,
    0x74449D09UL, 0xD23396BDUL, 0xE3DB8C20UL, 0x45AC8794UL, 0x800BB91AUL, 0x267CB2AEUL,
    0x1794A833UL, 0xB1E3A387UL, 0x20754FA0UL, 0x86024414UL, 0xB7EA5E89UL, 0x119D553DUL,
    0xD43A6BB3UL, 0x724D6007UL, 0x43A57A9AUL, 0xE5D2712EUL, 0x139A01C7UL, 0xB5ED0A73UL,
    0x840510EEUL, 0x22721B5AUL, 0xE7D525D4UL, 0x41A22E60UL, 0x704A34FDUL, 0xD63D3F49UL,
    0xCC1D9F8BUL, 0x6A6A943FUL, 0x5B828EA2UL, 0xFDF58516UL, 0x3852BB98UL, 0x9E25B02CUL,
    0xAFCDAAB1UL, 0x09BAA105UL, 0xFFF2D1ECUL, 0x5985DA58UL, 0x686DC0C5UL, 0xCE1ACB71UL,
    0x0BBDF5FFUL, 0xADCAFE4BUL, 0x9C22E4D6UL, 0x3A55EF62UL, 0xABC30345UL, 0x0DB408F1UL,
    0x3C5C126CUL, 0x9A2B19D8UL, 0x5F8C2756UL, 0xF9FB2CE2UL, 0xC813367FUL, 0x6E643DCBUL,
    0x982C4D22UL, 0x3E5B4696UL, 0x0FB35C0BUL, 0xA9C457BFUL, 0x6C636931UL, 0xCA146285UL,
    0xFBFC7818UL, 0x5D8B73ACUL, 0x03A0A617UL, 0xA5D7ADA3UL, 0x943FB73EUL, 0x3248BC8AUL,
    0xF7EF8204UL, 0x519889B0UL, 0x6070932DUL, 0xC6079899UL, 0x304FE870UL, 0x9638E3C4UL,
    0xA7D0F959UL, 0x01A7F2EDUL, 0xC400CC63UL, 0x6277C7D7UL, 0x539FDD4AUL, 0xF5E8D6FEUL,
    0x647E3AD9UL, 0xC209316DUL, 0xF3E12BF0UL, 0x55962044UL, 0x90311ECAUL, 0x3646157EUL,
    0x07AE0FE3UL, 0xA1D90457UL, 0x579174BEUL, 0xF1E67F0AUL, 0xC00E6597UL, 0x66796E23UL,
    0xA3DE50ADUL, 0x05A95B19UL, 0x34414184UL, 0x92364A30UL,
  },
  {
    0x00000000UL, 0xCCAA009EUL, 0x4225077DUL, 0x8E8F07E3UL, 0x844A0EFAUL, 0x48E00E64UL,
    0xC66F0987UL, 0x0AC50919UL, 0xD3E51BB5UL, 0x1F4F1B2BUL, 0x91C01CC8UL, 0x5D6A1C56UL,
    0x57AF154FUL, 0x9B0515D1UL, 0x158A1232UL, 0xD92012ACUL, 0x7CBB312BUL, 0xB01131B5UL,
    0x3E9E3656UL, 0xF23436C8UL, 0xF8F13FD1UL, 0x345B3F4FUL, 0xBAD438ACUL, 0x767E3832UL,
    0xAF5E2A9EUL, 0x63F42A00UL, 0xED7B2DE3UL, 0x21D12D7DUL, 0x2B142464UL, 0xE7BE24FAUL,
    0x69312319UL, 0xA59B2387UL, 0xF9766256UL, 0x35DC62C8UL, 0xBB53652BUL, 0x77F965B5UL,
    0x7D3C6CACUL, 0xB1966C32UL, 0x3F196BD1UL, 0xF3B36B4FUL, 0x2A9379E3UL, 0xE639797DUL,
    0x68B67E9EUL, 0xA41C7E00UL, 0xAED97719UL, 0x62737787UL, 0xECFC7064UL, 0x205670FAUL,
    0x85CD537DUL, 0x496753E3UL, 0xC7E85400UL, 0x0B42549EUL, 0x01875D87UL, 0xCD2D5D19UL,
    0x43A25AFAUL, 0x8F085A64UL, 0x562848C8UL, 0x9A824856UL, 0x140D4FB5UL, 0xD8A74F2BUL,
    0xD2624632UL, 0x1EC846ACUL, 0x9047414FUL, 0x5CED41D1UL, 0x299DC2EDUL, 0xE537C273UL,
    0x6BB8C590UL, 0xA712C50EUL, 0xADD7CC17UL, 0x617DCC89UL, 0xEFF2CB6AUL, 0x2358CBF4UL,
    0xFA78D958UL, 0x36D2D9C6UL, 0xB85DDE25UL, 0x74F7DEBBUL, 0x7E32D7A2UL, 0xB298D73CUL,
    0x3C17D0DFUL, 0xF0BDD041UL, 0x5526F3C6UL, 0x998CF358UL, 0x1703F4BBUL, 0xDBA9F425UL,
    0xD16CFD3CUL, 0x1DC6FDA2UL, 0x9349FA41UL, 0x5FE3FADFUL, 0x86C3E873UL, 0x4A69E8EDUL,
    0xC4E6EF0EUL, 0x084CEF90UL, 0x0289E689UL, 0xCE23E617UL, 0x40ACE1F4UL, 0x8C06E16AUL,
    0xD0EBA0BBUL, 0x1C41A025UL, 0x92CEA7C6UL, 0x5E64A758UL, 0x54A1AE41UL, 0x980BAEDFUL,
    0x1684A93CUL, 0xDA2EA9A2UL, 0x030EBB0EUL, 0xCFA4BB90UL, 0x412BBC73UL, 0x8D81BCEDUL,
    0x8744B5F4UL, 0x4BEEB56AUL, 0xC561B289UL, 0x09CBB217UL, 0xAC509190UL, 0x60FA910EUL,
    0xEE7596EDUL, 0x22DF9673UL, 0x281A9F6AUL, 0xE4B09FF4UL, 0x6A3F9817UL, 0xA6959889UL,
    0x7FB58A25UL, 0xB31F8ABBUL, 0x3D908D58UL, 0xF13A8DC6UL, 0xFBFF84DFUL, 0x37558441UL,
    0xB9DA83A2UL, 0x7570833CUL, 0x533B85DAUL, 0x9F918544UL, 0x111E82A7UL, 0xDDB48239UL,
    0xD7718B20UL, 0x1BDB8BBEUL, 0x95548C5DUL, 0x59FE8CC3UL, 0x80DE9E6FUL, 0x4C749EF1UL,
    0xC2FB9912UL, 0x0E51998CUL, 0x04949095UL, 0xC83E900BUL, 0x46B197E8UL, 0x8A1B9776UL,
    0x2F80B4F1UL, 0xE32AB46FUL, 0x6DA5B38CUL, 0xA10FB312UL, 0xABCABA0BUL, 0x6760BA95UL,
    0xE9EFBD76UL, 0x2545BDE8UL, 0xFC65AF44UL, 0x30CFAFDAUL, 0xBE40A839UL, 0x72EAA8A7UL,
    0x782FA1BEUL, 0xB485A120UL, 0x3A0AA6C3UL, 0xF6A0A65DUL, 0xAA4DE78CUL, 0x66E7E712UL,
    0xE868E0F1UL, 0x24C2E06FUL, 0x2E07E976UL, 0xE2ADE9E8UL, 0x6C22EE0BUL, 0xA088EE95UL,
    0x79A8FC39UL, 0xB502FCA7UL, 0x3B8DFB44UL, 0xF727FBDAUL, 0xFDE2F2C3UL, 0x3148F25DUL,
    0xBFC7F5BEUL, 0x736DF520UL, 0xD6F6D6A7UL, 0x1A5CD639UL, 0x94D3D1DAUL, 0x5879D144UL,
    0x52BCD85DUL, 0x9E16D8C3UL, 0x1099DF20UL, 0xDC33DFBEUL, 0x0513CD12UL, 0xC9B9CD8CUL,
    0x4736CA6FUL, 0x8B9CCAF1UL, 0x8159C3E8UL, 0x4DF3C376UL, 0xC37CC495UL, 0x0FD6C40BUL,
    0x7AA64737UL, 0xB60C47A9UL, 0x3883404AUL, 0xF42940D4UL, 0xFEEC49CDUL, 0x32464953UL,
    0xBCC94EB0UL, 0x70634E2EUL, 0xA9435C82UL, 0x65E95C1CUL, 0xEB665BFFUL, 0x27CC5B61UL,
    0x2D095278UL, 0xE1A352E6UL, 0x6F2C5505UL, 0xA386559BUL, 0x061D761CUL, 0xCAB77682UL,
    0x44387161UL, 0x889271FFUL, 0x825778E6UL, 0x4EFD7878UL, 0xC0727F9BUL, 0x0CD87F05UL,
    0xD5F86DA9UL, 0x19526D37UL, 0x97DD6AD4UL, 0x5B776A4AUL, 0x51B26353UL, 0x9D1863CDUL,
    0x1397642EUL, 0xDF3D64B0UL, 0x83D02561UL, 0x4F7A25FFUL, 0xC1F5221CUL, 0x0D5F2282UL,
    0x079A2B9BUL, 0xCB302B05UL, 0x45BF2CE6UL, 0x89152C78UL, 0x50353ED4UL, 0x9C9F3E4AUL,
    0x121039A9UL, 0xDEBA3937UL, 0xD47F302EUL, 0x18D530B0UL, 0x965A3753UL, 0x5AF037CDUL,
    0xFF6B144AUL, 0x33C114D4UL, 0xBD4E1337UL, 0x71E413A9UL, 0x7B211AB0UL, 0xB78B1A2EUL,
    0x39041DCDUL, 0xF5AE1D53UL, 0x2C8E0FFFUL, 0xE0240F61UL, 0x6EAB0882UL, 0xA201081CUL,
    0xA8C40105UL, 0x646E019BUL, 0xEAE10678UL, 0x264B06E6UL,
  },
#endif
#if ACCEL__CRC32_BRAID
  {
    0x00000000UL, 0xA58B900EUL, 0x9066265DUL, 0x35EDB653UL, 0xFBBD4AFBUL, 0x5E36DAF5UL,
    0x6BDB6CA6UL, 0xCE50FCA8UL, 0x2C0B93B7UL, 0x898003B9UL, 0xBC6DB5EAUL, 0x19E625E4UL,
    0xD7B6D94CUL, 0x723D4942UL, 0x47D0FF11UL, 0xE25B6F1FUL, 0x5817276EUL, 0xFD9CB760UL,
    0xC8710133UL, 0x6DFA913DUL, 0xA3AA6D95UL, 0x0621FD9BUL, 0x33CC4BC8UL, 0x9647DBC6UL,
    0x741CB4D9UL, 0xD19724D7UL, 0xE47A9284UL, 0x41F1028AUL, 0x8FA1FE22UL, 0x2A2A6E2CUL,
    0x1FC7D87FUL, 0xBA4C4871UL, 0xB02E4EDCUL, 0x15A5DED2UL, 0x20486881UL, 0x85C3F88FUL,
    0x4B930427UL, 0xEE189429UL, 0xDBF5227AUL, 0x7E7EB274UL, 0x9C25DD6BUL, 0x39AE4D65UL,
    0x0C43FB36UL, 0xA9C86B38UL, 0x67989790UL, 0xC213079EUL, 0xF7FEB1CDUL, 0x527521C3UL,
    0xE83969B2UL, 0x4DB2F9BCUL, 0x785F4FEFUL, 0xDDD4DFE1UL, 0x13842349UL, 0xB60FB347UL,
    0x83E20514UL, 0x2669951AUL, 0xC432FA05UL, 0x61B96A0BUL, 0x5454DC58UL, 0xF1DF4C56UL,
    0x3F8FB0FEUL, 0x9A0420F0UL, 0xAFE996A3UL, 0x0A6206ADUL, 0xBB2D9BF9UL, 0x1EA60BF7UL,
    0x2B4BBDA4UL, 0x8EC02DAAUL, 0x4090D102UL, 0xE51B410CUL, 0xD0F6F75FUL, 0x757D6751UL,
    0x9726084EUL, 0x32AD9840UL, 0x07402E13UL, 0xA2CBBE1DUL, 0x6C9B42B5UL, 0xC910D2BBUL,
    0xFCFD64E8UL, 0x5976F4E6UL, 0xE33ABC97UL, 0x46B12C99UL, 0x735C9ACAUL, 0xD6D70AC4UL,
    0x1887F66CUL, 0xBD0C6662UL, 0x88E1D031UL, 0x2D6A403FUL, 0xCF312F20UL, 0x6ABABF2EUL,
    0x5F57097DUL, 0xFADC9973UL, 0x348C65DBUL, 0x9107F5D5UL, 0xA4EA4386UL, 0x0161D388UL,
    0x0B03D525UL, 0xAE88452BUL, 0x9B65F378UL, 0x3EEE6376UL, 0xF0BE9FDEUL, 0x55350FD0UL,
    0x60D8B983UL, 0xC553298DUL, 0x27084692UL, 0x8283D69CUL, 0xB76E60CFUL, 0x12E5F0C1UL,
    0xDCB50C69UL, 0x793E9C67UL, 0x4CD32A34UL, 0xE958BA3AUL, 0x5314F24BUL, 0xF69F6245UL,
    0xC372D416UL, 0x66F94418UL, 0xA8A9B8B0UL, 0x0D2228BEUL, 0x38CF9EEDUL, 0x9D440EE3UL,
    0x7F1F61FCUL, 0xDA94F1F2UL, 0xEF7947A1UL, 0x4AF2D7AFUL, 0x84A22B07UL, 0x2129BB09UL,
    0x14C40D5AUL, 0xB14F9D54UL, 0xAD2A31B3UL, 0x08A1A1BDUL, 0x3D4C17EEUL, 0x98C787E0UL,
    0x56977B48UL, 0xF31CEB46UL, 0xC6F15D15UL, 0x637ACD1BUL, 0x8121A204UL, 0x24AA320AUL,
    0x11478459UL, 0xB4CC1457UL, 0x7A9CE8FFUL, 0xDF1778F1UL, 0xEAFACEA2UL, 0x4F715EACUL,
    0xF53D16DDUL, 0x50B686D3UL, 0x655B3080UL, 0xC0D0A08EUL, 0x0E805C26UL, 0xAB0BCC28UL,
    0x9EE67A7BUL, 0x3B6DEA75UL, 0xD936856AUL, 0x7CBD1564UL, 0x4950A337UL, 0xECDB3339UL,
    0x228BCF91UL, 0x87005F9FUL, 0xB2EDE9CCUL, 0x176679C2UL, 0x1D047F6FUL, 0xB88FEF61UL,
    0x8D625932UL, 0x28E9C93CUL, 0xE6B93594UL, 0x4332A59AUL, 0x76DF13C9UL, 0xD35483C7UL,
    0x310FECD8UL, 0x94847CD6UL, 0xA169CA85UL, 0x04E25A8BUL, 0xCAB2A623UL, 0x6F39362DUL,
    0x5AD4807EUL, 0xFF5F1070UL, 0x45135801UL, 0xE098C80FUL, 0xD5757E5CUL, 0x70FEEE52UL,
    0xBEAE12FAUL, 0x1B2582F4UL, 0x2EC834A7UL, 0x8B43A4A9UL, 0x6918CBB6UL, 0xCC935BB8UL,
    0xF97EEDEBUL, 0x5CF57DE5UL, 0x92A5814DUL, 0x372E1143UL, 0x02C3A710UL, 0xA748371EUL,
    0x1607AA4AUL, 0xB38C3A44UL, 0x86618C17UL, 0x23EA1C19UL, 0xEDBAE0B1UL, 0x483170BFUL,
    0x7DDCC6ECUL, 0xD85756E2UL, 0x3A0C39FDUL, 0x9F87A9F3UL, 0xAA6A1FA0UL, 0x0FE18FAEUL,
    0xC1B17306UL, 0x643AE308UL, 0x51D7555BUL, 0xF45CC555UL, 0x4E108D24UL, 0xEB9B1D2AUL,
    0xDE76AB79UL, 0x7BFD3B77UL, 0xB5ADC7DFUL, 0x102657D1UL, 0x25CBE182UL, 0x8040718CUL,
    0x621B1E93UL, 0xC7908E9DUL, 0xF27D38CEUL, 0x57F6A8C0UL, 0x99A65468UL, 0x3C2DC466UL,
    0x09C07235UL, 0xAC4BE23BUL, 0xA629E496UL, 0x03A27498UL, 0x364FC2CBUL, 0x93C452C5UL,
    0x5D94AE6DUL, 0xF81F3E63UL, 0xCDF28830UL, 0x6879183EUL, 0x8A227721UL, 0x2FA9E72FUL,
    0x1A44517CUL, 0xBFCFC172UL, 0x719F3DDAUL, 0xD414ADD4UL, 0xE1F91B87UL, 0x44728B89UL,
    0xFE3EC3F8UL, 0x5BB553F6UL, 0x6E58E5A5UL, 0xCBD375ABUL, 0x05838903UL, 0xA008190DUL,
    0x95E5AF5EUL, 0x306E3F50UL, 0xD235504FUL, 0x77BEC041UL, 0x42537612UL, 0xE7D8E61CUL,
    0x29881AB4UL, 0x8C038ABAUL, 0xB9EE3CE9UL, 0x1C65ACE7UL,
  },
  {
    0x00000000UL, 0xE71DA697UL, 0x154A4B6FUL, 0xF257EDF8UL, 0x2A9496DEUL, 0xCD893049UL,
    0x3FDEDDB1UL, 0xD8C37B26UL, 0x55292DBCUL, 0xB2348B2BUL, 0x406366D3UL, 0xA77EC044UL,
    0x7FBDBB62UL, 0x98A01DF5UL, 0x6AF7F00DUL, 0x8DEA569AUL, 0xAA525B78UL, 0x4D4FFDEFUL,
    0xBF181017UL, 0x5805B680UL, 0x80C6CDA6UL, 0x67DB6B31UL, 0x958C86C9UL, 0x7291205EUL,
    0xFF7B76C4UL, 0x1866D053UL, 0xEA313DABUL, 0x0D2C9B3CUL, 0xD5EFE01AUL, 0x32F2468DUL,
    0xC0A5AB75UL, 0x27B80DE2UL, 0x8FD5B0B1UL, 0x68C81626UL, 0x9A9FFBDEUL, 0x7D825D49UL,
    0xA541266FUL, 0x425C80F8UL, 0xB00B6D00UL, 0x5716CB97UL, 0xDAFC9D0DUL, 0x3DE13B9AUL,
    0xCFB6D662UL, 0x28AB70F5UL, 0xF0680BD3UL, 0x1775AD44UL, 0xE52240BCUL, 0x023FE62BUL,
    0x2587EBC9UL, 0xC29A4D5EUL, 0x30CDA0A6UL, 0xD7D00631UL, 0x0F137D17UL, 0xE80EDB80UL,
    0x1A593678UL, 0xFD4490EFUL, 0x70AEC675UL, 0x97B360E2UL, 0x65E48D1AUL, 0x82F92B8DUL,
    0x5A3A50ABUL, 0xBD27F63CUL, 0x4F701BC4UL, 0xA86DBD53UL, 0xC4DA6723UL, 0x23C7C1B4UL,
    0xD1902C4CUL, 0x368D8ADBUL, 0xEE4EF1FDUL, 0x0953576AUL, 0xFB04BA92UL, 0x1C191C05UL,
    0x91F34A9FUL, 0x76EEEC08UL, 0x84B901F0UL, 0x63A4A767UL, 0xBB67DC41UL, 0x5C7A7AD6UL,
    0xAE2D972EUL, 0x493031B9UL, 0x6E883C5BUL, 0x89959ACCUL, 0x7BC27734UL, 0x9CDFD1A3UL,
    0x441CAA85UL, 0xA3010C12UL, 0x5156E1EAUL, 0xB64B477DUL, 0x3BA111E7UL, 0xDCBCB770UL,
    0x2EEB5A88UL, 0xC9F6FC1FUL, 0x11358739UL, 0xF62821AEUL, 0x047FCC56UL, 0xE3626AC1UL,
    0x4B0FD792UL, 0xAC127105UL, 0x5E459CFDUL, 0xB9583A6AUL, 0x619B414CUL, 0x8686E7DBUL,
    0x74D10A23UL, 0x93CCACB4UL, 0x1E26FA2EUL, 0xF93B5CB9UL, 0x0B6CB141UL, 0xEC7117D6UL,
    0x34B26CF0UL, 0xD3AFCA67UL, 0x21F8279FUL, 0xC6E58108UL, 0xE15D8CEAUL, 0x06402A7DUL,
    0xF417C785UL, 0x130A6112UL, 0xCBC91A34UL, 0x2CD4BCA3UL, 0xDE83515BUL, 0x399EF7CCUL,
    0xB474A156UL, 0x536907C1UL, 0xA13EEA39UL, 0x46234CAEUL, 0x9EE03788UL, 0x79FD911FUL,
    0x8BAA7CE7UL, 0x6CB7DA70UL, 0x52C5C807UL, 0xB5D86E90UL, 0x478F8368UL, 0xA09225FFUL,
    0x78515ED9UL, 0x9F4CF84EUL, 0x6D1B15B6UL, 0x8A06B321UL, 0x07ECE5BBUL, 0xE0F1432CUL,
    0x12A6AED4UL, 0xF5BB0843UL, 0x2D787365UL, 0xCA65D5F2UL, 0x3832380AUL, 0xDF2F9E9DUL,
    0xF897937FUL, 0x1F8A35E8UL, 0xEDDDD810UL, 0x0AC07E87UL, 0xD20305A1UL, 0x351EA336UL,
    0xC7494ECEUL, 0x2054E859UL, 0xADBEBEC3UL, 0x4AA31854UL, 0xB8F4F5ACUL, 0x5FE9533BUL,
    0x872A281DUL, 0x60378E8AUL, 0x92606372UL, 0x757DC5E5UL, 0xDD1078B6UL, 0x3A0DDE21UL,
    0xC85A33D9UL, 0x2F47954EUL, 0xF784EE68UL, 0x109948FFUL, 0xE2CEA507UL, 0x05D30390UL,
    0x8839550AUL, 0x6F24F39DUL, 0x9D731E65UL, 0x7A6EB8F2UL, 0xA2ADC3D4UL, 0x45B06543UL,
    0xB7E788BBUL, 0x50FA2E2CUL, 0x774223CEUL, 0x905F8559UL, 0x620868A1UL, 0x8515CE36UL,
    0x5DD6B510UL, 0xBACB1387UL, 0x489CFE7FUL, 0xAF8158E8UL, 0x226B0E72UL, 0xC576A8E5UL,
    0x3721451DUL, 0xD03CE38AUL, 0x08FF98ACUL, 0xEFE23E3BUL, 0x1DB5D3C3UL, 0xFAA87554UL,
    0x961FAF24UL, 0x710209B3UL, 0x8355E44BUL, 0x644842DCUL, 0xBC8B39FAUL, 0x5B969F6DUL,
    0xA9C17295UL, 0x4EDCD402UL, 0xC3368298UL, 0x242B240FUL, 0xD67CC9F7UL, 0x31616F60UL,
    0xE9A21446UL, 0x0EBFB2D1UL, 0xFCE85F29UL, 0x1BF5F9BEUL, 0x3C4DF45CUL, 0xDB5052CBUL,
    0x2907BF33UL, 0xCE1A19A4UL, 0x16D96282UL, 0xF1C4C415UL, 0x039329EDUL, 0xE48E8F7AUL,
    0x6964D9E0UL, 0x8E797F77UL, 0x7C2E928FUL, 0x9B333418UL, 0x43F04F3EUL, 0xA4EDE9A9UL,
    0x56BA0451UL, 0xB1A7A2C6UL, 0x19CA1F95UL, 0xFED7B902UL, 0x0C8054FAUL, 0xEB9DF26DUL,
    0x335E894BUL, 0xD4432FDCUL, 0x2614C224UL, 0xC10964B3UL, 0x4CE33229UL, 0xABFE94BEUL,
    0x59A97946UL, 0xBEB4DFD1UL, 0x6677A4F7UL, 0x816A0260UL, 0x733DEF98UL, 0x9420490FUL,
    0xB39844EDUL, 0x5485E27AUL, 0xA6D20F82UL, 0x41CFA915UL, 0x990CD233UL, 0x7E1174A4UL,
    0x8C46995CUL, 0x6B5B3FCBUL, 0xE6B16951UL, 0x01ACCFC6UL, 0xF3FB223EUL, 0x14E684A9UL,
    0xCC25FF8FUL, 0x2B385918UL, 0xD96FB4E0UL, 0x3E721277UL,
  },
  {
    0x00000000UL, 0x6E8C1B41UL, 0xDD183682UL, 0xB3942DC3UL, 0x61416B45UL, 0x0FCD7004UL,
    0xBC595DC7UL, 0xD2D54686UL, 0xC282D68AUL, 0xAC0ECDCBUL, 0x1F9AE008UL, 0x7116FB49UL,
    0xA3C3BDCFUL, 0xCD4FA68EUL, 0x7EDB8B4DUL, 0x1057900CUL, 0x5E74AB55UL, 0x30F8B014UL,
    0x836C9DD7UL, 0xEDE08696UL, 0x3F35C010UL, 0x51B9DB51UL, 0xE22DF692UL, 0x8CA1EDD3UL,
    0x9CF67DDFUL, 0xF27A669EUL, 0x41EE4B5DUL, 0x2F62501CUL, 0xFDB7169AUL, 0x933B0DDBUL,
    0x20AF2018UL, 0x4E233B59UL, 0xBCE956AAUL, 0xD2654DEBUL, 0x61F16028UL, 0x0F7D7B69UL,
    0xDDA83DEFUL, 0xB32426AEUL, 0x00B00B6DUL, 0x6E3C102CUL, 0x7E6B8020UL, 0x10E79B61UL,
    0xA373B6A2UL, 0xCDFFADE3UL, 0x1F2AEB65UL, 0x71A6F024UL, 0xC232DDE7UL, 0xACBEC6A6UL,
    0xE29DFDFFUL, 0x8C11E6BEUL, 0x3F85CB7DUL, 0x5109D03CUL, 0x83DC96BAUL, 0xED508DFBUL,
    0x5EC4A038UL, 0x3048BB79UL, 0x201F2B75UL, 0x4E933034UL, 0xFD071DF7UL, 0x938B06B6UL,
    0x415E4030UL, 0x2FD25B71UL, 0x9C4676B2UL, 0xF2CA6DF3UL, 0xA2A3AB15UL, 0xCC2FB054UL,
    0x7FBB9D97UL, 0x113786D6UL, 0xC3E2C050UL, 0xAD6EDB11UL, 0x1EFAF6D2UL, 0x7076ED93UL,
    0x60217D9FUL, 0x0EAD66DEUL, 0xBD394B1DUL, 0xD3B5505CUL, 0x016016DAUL, 0x6FEC0D9BUL,
    0xDC782058UL, 0xB2F43B19UL, 0xFCD70040UL, 0x925B1B01UL, 0x21CF36C2UL, 0x4F432D83UL,
    0x9D966B05UL, 0xF31A7044UL, 0x408E5D87UL, 0x2E0246C6UL, 0x3E55D6CAUL, 0x50D9CD8BUL,
    0xE34DE048UL, 0x8DC1FB09UL, 0x5F14BD8FUL, 0x3198A6CEUL, 0x820C8B0DUL, 0xEC80904CUL,
    0x1E4AFDBFUL, 0x70C6E6FEUL, 0xC352CB3DUL, 0xADDED07CUL, 0x7F0B96FAUL, 0x11878DBBUL,
    0xA213A078UL, 0xCC9FBB39UL, 0xDCC82B35UL, 0xB2443074UL, 0x01D01DB7UL, 0x6F5C06F6UL,
    0xBD894070UL, 0xD3055B31UL, 0x609176F2UL, 0x0E1D6DB3UL, 0x403E56EAUL, 0x2EB24DABUL,
    0x9D266068UL, 0xF3AA7B29UL, 0x217F3DAFUL, 0x4FF326EEUL, 0xFC670B2DUL, 0x92EB106CUL,
    0x82BC8060UL, 0xEC309B21UL, 0x5FA4B6E2UL, 0x3128ADA3UL, 0xE3FDEB25UL, 0x8D71F064UL,
    0x3EE5DDA7UL, 0x5069C6E6UL, 0x9E36506BUL, 0xF0BA4B2AUL, 0x432E66E9UL, 0x2DA27DA8UL,
    0xFF773B2EUL, 0x91FB206FUL, 0x226F0DACUL, 0x4CE316EDUL, 0x5CB486E1UL, 0x32389DA0UL,
    0x81ACB063UL, 0xEF20AB22UL, 0x3DF5EDA4UL, 0x5379F6E5UL, 0xE0EDDB26UL, 0x8E61C067UL,
    0xC042FB3EUL, 0xAECEE07FUL, 0x1D5ACDBCUL, 0x73D6D6FDUL, 0xA103907BUL, 0xCF8F8B3AUL,
    0x7C1BA6F9UL, 0x1297BDB8UL, 0x02C02DB4UL, 0x6C4C36F5UL, 0xDFD81B36UL, 0xB1540077UL,
    0x638146F1UL, 0x0D0D5DB0UL, 0xBE997073UL, 0xD0156B32UL, 0x22DF06C1UL, 0x4C531D80UL,
    0xFFC73043UL, 0x914B2B02UL, 0x439E6D84UL, 0x2D1276C5UL, 0x9E865B06UL, 0xF00A4047UL,
    0xE05DD04BUL, 0x8ED1CB0AUL, 0x3D45E6C9UL, 0x53C9FD88UL, 0x811CBB0EUL, 0xEF90A04FUL,
    0x5C048D8CUL, 0x328896CDUL, 0x7CABAD94UL, 0x1227B6D5UL, 0xA1B39B16UL, 0xCF3F8057UL,
    0x1DEAC6D1UL, 0x7366DD90UL, 0xC0F2F053UL, 0xAE7EEB12UL, 0xBE297B1EUL, 0xD0A5605FUL,
    0x63314D9CUL, 0x0DBD56DDUL, 0xDF68105BUL, 0xB1E40B1AUL, 0x027026D9UL, 0x6CFC3D98UL,
    0x3C95FB7EUL, 0x5219E03FUL, 0xE18DCDFCUL, 0x8F01D6BDUL, 0x5DD4903BUL, 0x33588B7AUL,
    0x80CCA6B9UL, 0xEE40BDF8UL, 0xFE172DF4UL, 0x909B36B5UL, 0x230F1B76UL, 0x4D830037UL,
    0x9F5646B1UL, 0xF1DA5DF0UL, 0x424E7033UL, 0x2CC26B72UL, 0x62E1502BUL, 0x0C6D4B6AUL,
    0xBFF966A9UL, 0xD1757DE8UL, 0x03A03B6EUL, 0x6D2C202FUL, 0xDEB80DECUL, 0xB03416ADUL,
    0xA06386A1UL, 0xCEEF9DE0UL, 0x7D7BB023UL, 0x13F7AB62UL, 0xC122EDE4UL, 0xAFAEF6A5UL,
    0x1C3ADB66UL, 0x72B6C027UL, 0x807CADD4UL, 0xEEF0B695UL, 0x5D649B56UL, 0x33E88017UL,
    0xE13DC691UL, 0x8FB1DDD0UL, 0x3C25F013UL, 0x52A9EB52UL, 0x42FE7B5EUL, 0x2C72601FUL,
    0x9FE64DDCUL, 0xF16A569DUL, 0x23BF101BUL, 0x4D330B5AUL, 0xFEA72699UL, 0x902B3DD8UL,
    0xDE080681UL, 0xB0841DC0UL, 0x03103003UL, 0x6D9C2B42UL, 0xBF496DC4UL, 0xD1C57685UL,
    0x62515B46UL, 0x0CDD4007UL, 0x1C8AD00BUL, 0x7206CB4AUL, 0xC192E689UL, 0xAF1EFDC8UL,
    0x7DCBBB4EUL, 0x1347A00FUL, 0xA0D38DCCUL, 0xCE5F968DUL,
  },
  {
    0x00000000UL, 0x01B5FD1DUL, 0x036BFA3AUL, 0x02DE0727UL, 0x06D7F474UL, 0x07620969UL,
    0x05BC0E4EUL, 0x0409F353UL, 0x0DAFE8E8UL, 0x0C1A15F5UL, 0x0EC412D2UL, 0x0F71EFCFUL,
    0x0B781C9CUL, 0x0ACDE181UL, 0x0813E6A6UL, 0x09A61BBBUL, 0x1B5FD1D0UL, 0x1AEA2CCDUL,
    0x18342BEAUL, 0x1981D6F7UL, 0x1D8825A4UL, 0x1C3DD8B9UL, 0x1EE3DF9EUL, 0x1F562283UL,
    0x16F03938UL, 0x1745C425UL, 0x159BC302UL, 0x142E3E1FUL, 0x1027CD4CUL, 0x11923051UL,
    0x134C3776UL, 0x12F9CA6BUL, 0x36BFA3A0UL, 0x370A5EBDUL, 0x35D4599AUL, 0x3461A487UL,
    0x306857D4UL, 0x31DDAAC9UL, 0x3303ADEEUL, 0x32B650F3UL, 0x3B104B48UL, 0x3AA5B655UL,
    0x387BB172UL, 0x39CE4C6FUL, 0x3DC7BF3CUL, 0x3C724221UL, 0x3EAC4506UL, 0x3F19B81BUL,
    0x2DE07270UL, 0x2C558F6DUL, 0x2E8B884AUL, 0x2F3E7557UL, 0x2B378604UL, 0x2A827B19UL,
    0x285C7C3EUL, 0x29E98123UL, 0x204F9A98UL, 0x21FA6785UL, 0x232460A2UL, 0x22919DBFUL,
    0x26986EECUL, 0x272D93F1UL, 0x25F394D6UL, 0x244669CBUL, 0x6D7F4740UL, 0x6CCABA5DUL,
    0x6E14BD7AUL, 0x6FA14067UL, 0x6BA8B334UL, 0x6A1D4E29UL, 0x68C3490EUL, 0x6976B413UL,
    0x60D0AFA8UL, 0x616552B5UL, 0x63BB5592UL, 0x620EA88FUL, 0x66075BDCUL, 0x67B2A6C1UL,
    0x656CA1E6UL, 0x64D95CFBUL, 0x76209690UL, 0x77956B8DUL, 0x754B6CAAUL, 0x74FE91B7UL,
    0x70F762E4UL, 0x71429FF9UL, 0x739C98DEUL, 0x722965C3UL, 0x7B8F7E78UL, 0x7A3A8365UL,
    0x78E48442UL, 0x7951795FUL, 0x7D588A0CUL, 0x7CED7711UL, 0x7E337036UL, 0x7F868D2BUL,
    0x5BC0E4E0UL, 0x5A7519FDUL, 0x58AB1EDAUL, 0x591EE3C7UL, 0x5D171094UL, 0x5CA2ED89UL,
    0x5E7CEAAEUL, 0x5FC917B3UL, 0x566F0C08UL, 0x57DAF115UL, 0x5504F632UL, 0x54B10B2FUL,
    0x50B8F87CUL, 0x510D0561UL, 0x53D30246UL, 0x5266FF5BUL, 0x409F3530UL, 0x412AC82DUL,
    0x43F4CF0AUL, 0x42413217UL, 0x4648C144UL, 0x47FD3C59UL, 0x45233B7EUL, 0x4496C663UL,
    0x4D30DDD8UL, 0x4C8520C5UL, 0x4E5B27E2UL, 0x4FEEDAFFUL, 0x4BE729ACUL, 0x4A52D4B1UL,
    0x488CD396UL, 0x49392E8BUL, 0xDAFE8E80UL, 0xDB4B739DUL, 0xD99574BAUL, 0xD82089A7UL,
    0xDC297AF4UL, 0xDD9C87E9UL, 0xDF4280CEUL, 0xDEF77DD3UL, 0xD7516668UL, 0xD6E49B75UL,
    0xD43A9C52UL, 0xD58F614FUL, 0xD186921CUL, 0xD0336F01UL, 0xD2ED6826UL, 0xD358953BUL,
    0xC1A15F50UL, 0xC014A24DUL, 0xC2CAA56AUL, 0xC37F5877UL, 0xC776AB24UL, 0xC6C35639UL,
    0xC41D511EUL, 0xC5A8AC03UL, 0xCC0EB7B8UL, 0xCDBB4AA5UL, 0xCF654D82UL, 0xCED0B09FUL,
    0xCAD943CCUL, 0xCB6CBED1UL, 0xC9B2B9F6UL, 0xC80744EBUL, 0xEC412D20UL, 0xEDF4D03DUL,
    0xEF2AD71AUL, 0xEE9F2A07UL, 0xEA96D954UL, 0xEB232449UL, 0xE9FD236EUL, 0xE848DE73UL,
    0xE1EEC5C8UL, 0xE05B38D5UL, 0xE2853FF2UL, 0xE330C2EFUL, 0xE73931BCUL, 0xE68CCCA1UL,
    0xE452CB86UL, 0xE5E7369BUL, 0xF71EFCF0UL, 0xF6AB01EDUL, 0xF47506CAUL, 0xF5C0FBD7UL,
    0xF1C90884UL, 0xF07CF599UL, 0xF2A2F2BEUL, 0xF3170FA3UL, 0xFAB11418UL, 0xFB04E905UL,
    0xF9DAEE22UL, 0xF86F133FUL, 0xFC66E06CUL, 0xFDD31D71UL, 0xFF0D1A56UL, 0xFEB8E74BUL,
    0xB781C9C0UL, 0xB63434DDUL, 0xB4EA33FAUL, 0xB55FCEE7UL, 0xB1563DB4UL, 0xB0E3C0A9UL,
    0xB23DC78EUL, 0xB3883A93UL, 0xBA2E2128UL, 0xBB9BDC35UL, 0xB945DB12UL, 0xB8F0260FUL,
    0xBCF9D55CUL, 0xBD4C2841UL, 0xBF922F66UL, 0xBE27D27BUL, 0xACDE1810UL, 0xAD6BE50DUL,
    0xAFB5E22AUL, 0xAE001F37UL, 0xAA09EC64UL, 0xABBC1179UL, 0xA962165EUL, 0xA8D7EB43UL,
    0xA171F0F8UL, 0xA0C40DE5UL, 0xA21A0AC2UL, 0xA3AFF7DFUL, 0xA7A6048CUL, 0xA613F991UL,
    0xA4CDFEB6UL, 0xA57803ABUL, 0x813E6A60UL, 0x808B977DUL, 0x8255905AUL, 0x83E06D47UL,
    0x87E99E14UL, 0x865C6309UL, 0x8482642EUL, 0x85379933UL, 0x8C918288UL, 0x8D247F95UL,
    0x8FFA78B2UL, 0x8E4F85AFUL, 0x8A4676FCUL, 0x8BF38BE1UL, 0x892D8CC6UL, 0x889871DBUL,
    0x9A61BBB0UL, 0x9BD446ADUL, 0x990A418AUL, 0x98BFBC97UL, 0x9CB64FC4UL, 0x9D03B2D9UL,
    0x9FDDB5FEUL, 0x9E6848E3UL, 0x97CE5358UL, 0x967BAE45UL, 0x94A5A962UL, 0x9510547FUL,
    0x9119A72CUL, 0x90AC5A31UL, 0x92725D16UL, 0x93C7A00BUL,
  },
  {
    0x00000000UL, 0x6307D924UL, 0xC60FB248UL, 0xA5086B6CUL, 0x576E62D1UL, 0x3469BBF5UL,
    0x9161D099UL, 0xF26609BDUL, 0xAEDCC5A2UL, 0xCDDB1C86UL, 0x68D377EAUL, 0x0BD4AECEUL,
    0xF9B2A773UL, 0x9AB57E57UL, 0x3FBD153BUL, 0x5CBACC1FUL, 0x86C88D05UL, 0xE5CF5421UL,
    0x40C73F4DUL, 0x23C0E669UL, 0xD1A6EFD4UL, 0xB2A136F0UL, 0x17A95D9CUL, 0x74AE84B8UL,
    0x281448A7UL, 0x4B139183UL, 0xEE1BFAEFUL, 0x8D1C23CBUL, 0x7F7A2A76UL, 0x1C7DF352UL,
    0xB975983EUL, 0xDA72411AUL, 0xD6E01C4BUL, 0xB5E7C56FUL, 0x10EFAE03UL, 0x73E87727UL,
    0x818E7E9AUL, 0xE289A7BEUL, 0x4781CCD2UL, 0x248615F6UL, 0x783CD9E9UL, 0x1B3B00CDUL,
    0xBE336BA1UL, 0xDD34B285UL, 0x2F52BB38UL, 0x4C55621CUL, 0xE95D0970UL, 0x8A5AD054UL,
    0x5028914EUL, 0x332F486AUL, 0x96272306UL, 0xF520FA22UL, 0x0746F39FUL, 0x64412ABBUL,
    0xC14941D7UL, 0xA24E98F3UL, 0xFEF454ECUL, 0x9DF38DC8UL, 0x38FBE6A4UL, 0x5BFC3F80UL,
    0xA99A363DUL, 0xCA9DEF19UL, 0x6F958475UL, 0x0C925D51UL, 0x76B13ED7UL, 0x15B6E7F3UL,
    0xB0BE8C9FUL, 0xD3B955BBUL, 0x21DF5C06UL, 0x42D88522UL, 0xE7D0EE4EUL, 0x84D7376AUL,
    0xD86DFB75UL, 0xBB6A2251UL, 0x1E62493DUL, 0x7D659019UL, 0x8F0399A4UL, 0xEC044080UL,
    0x490C2BECUL, 0x2A0BF2C8UL, 0xF079B3D2UL, 0x937E6AF6UL, 0x3676019AUL, 0x5571D8BEUL,
    0xA717D103UL, 0xC4100827UL, 0x6118634BUL, 0x021FBA6FUL, 0x5EA57670UL, 0x3DA2AF54UL,
    0x98AAC438UL, 0xFBAD1D1CUL, 0x09CB14A1UL, 0x6ACCCD85UL, 0xCFC4A6E9UL, 0xACC37FCDUL,
    0xA051229CUL, 0xC356FBB8UL, 0x665E90D4UL, 0x055949F0UL, 0xF73F404DUL, 0x94389969UL,
    0x3130F205UL, 0x52372B21UL, 0x0E8DE73EUL, 0x6D8A3E1AUL, 0xC8825576UL, 0xAB858C52UL,
    0x59E385EFUL, 0x3AE45CCBUL, 0x9FEC37A7UL, 0xFCEBEE83UL, 0x2699AF99UL, 0x459E76BDUL,
    0xE0961DD1UL, 0x8391C4F5UL, 0x71F7CD48UL, 0x12F0146CUL, 0xB7F87F00UL, 0xD4FFA624UL,
    0x88456A3BUL, 0xEB42B31FUL, 0x4E4AD873UL, 0x2D4D0157UL, 0xDF2B08EAUL, 0xBC2CD1CEUL,
    0x1924BAA2UL, 0x7A236386UL, 0xED627DAEUL, 0x8E65A48AUL, 0x2B6DCFE6UL, 0x486A16C2UL,
    0xBA0C1F7FUL, 0xD90BC65BUL, 0x7C03AD37UL, 0x1F047413UL, 0x43BEB80CUL, 0x20B96128UL,
    0x85B10A44UL, 0xE6B6D360UL, 0x14D0DADDUL, 0x77D703F9UL, 0xD2DF6895UL, 0xB1D8B1B1UL,
    0x6BAAF0ABUL, 0x08AD298FUL, 0xADA542E3UL, 0xCEA29BC7UL, 0x3CC4927AUL, 0x5FC34B5EUL,
    0xFACB2032UL, 0x99CCF916UL, 0xC5763509UL, 0xA671EC2DUL, 0x03798741UL, 0x607E5E65UL,
    0x921857D8UL, 0xF11F8EFCUL, 0x5417E590UL, 0x37103CB4UL, 0x3B8261E5UL, 0x5885B8C1UL,
    0xFD8DD3ADUL, 0x9E8A0A89UL, 0x6CEC0334UL, 0x0FEBDA10UL, 0xAAE3B17CUL, 0xC9E46858UL,
    0x955EA447UL, 0xF6597D63UL, 0x5351160FUL, 0x3056CF2BUL, 0xC230C696UL, 0xA1371FB2UL,
    0x043F74DEUL, 0x6738ADFAUL, 0xBD4AECE0UL, 0xDE4D35C4UL, 0x7B455EA8UL, 0x1842878CUL,
    0xEA248E31UL, 0x89235715UL, 0x2C2B3C79UL, 0x4F2CE55DUL, 0x13962942UL, 0x7091F066UL,
    0xD5999B0AUL, 0xB69E422EUL, 0x44F84B93UL, 0x27FF92B7UL, 0x82F7F9DBUL, 0xE1F020FFUL,
    0x9BD34379UL, 0xF8D49A5DUL, 0x5DDCF131UL, 0x3EDB2815UL, 0xCCBD21A8UL, 0xAFBAF88CUL,
    0x0AB293E0UL, 0x69B54AC4UL, 0x350F86DBUL, 0x56085FFFUL, 0xF3003493UL, 0x9007EDB7UL,
    0x6261E40AUL, 0x01663D2EUL, 0xA46E5642UL, 0xC7698F66UL, 0x1D1BCE7CUL, 0x7E1C1758UL,
    0xDB147C34UL, 0xB813A510UL, 0x4A75ACADUL, 0x29727589UL, 0x8C7A1EE5UL, 0xEF7DC7C1UL,
    0xB3C70BDEUL, 0xD0C0D2FAUL, 0x75C8B996UL, 0x16CF60B2UL, 0xE4A9690FUL, 0x87AEB02BUL,
    0x22A6DB47UL, 0x41A10263UL, 0x4D335F32UL, 0x2E348616UL, 0x8B3CED7AUL, 0xE83B345EUL,
    0x1A5D3DE3UL, 0x795AE4C7UL, 0xDC528FABUL, 0xBF55568FUL, 0xE3EF9A90UL, 0x80E843B4UL,
    0x25E028D8UL, 0x46E7F1FCUL, 0xB481F841UL, 0xD7862165UL, 0x728E4A09UL, 0x1189932DUL,
    0xCBFBD237UL, 0xA8FC0B13UL, 0x0DF4607FUL, 0x6EF3B95BUL, 0x9C95B0E6UL, 0xFF9269C2UL,
    0x5A9A02AEUL, 0x399DDB8AUL, 0x65271795UL, 0x0620CEB1UL, 0xA328A5DDUL, 0xC02F7CF9UL,
    0x32497544UL, 0x514EAC60UL, 0xF446C70CUL, 0x97411E28UL,
  },
  {
    0x00000000UL, 0x3C60E308UL, 0x78C1C610UL, 0x44A12518UL, 0xF1838C20UL, 0xCDE36F28UL,
    0x89424A30UL, 0xB522A938UL, 0x38761E01UL, 0x0416FD09UL, 0x40B7D811UL, 0x7CD73B19UL,
    0xC9F59221UL, 0xF5957129UL, 0xB1345431UL, 0x8D54B739UL, 0x70EC3C02UL, 0x4C8CDF0AUL,
    0x082DFA12UL, 0x344D191AUL, 0x816FB022UL, 0xBD0F532AUL, 0xF9AE7632UL, 0xC5CE953AUL,
    0x489A2203UL, 0x74FAC10BUL, 0x305BE413UL, 0x0C3B071BUL, 0xB919AE23UL, 0x85794D2BUL,
    0xC1D86833UL, 0xFDB88B3BUL, 0xE1D87804UL, 0xDDB89B0CUL, 0x9919BE14UL, 0xA5795D1CUL,
    0x105BF424UL, 0x2C3B172CUL, 0x689A3234UL, 0x54FAD13CUL, 0xD9AE6605UL, 0xE5CE850DUL,
    0xA16FA015UL, 0x9D0F431DUL, 0x282DEA25UL, 0x144D092DUL, 0x50EC2C35UL, 0x6C8CCF3DUL,
    0x91344406UL, 0xAD54A70EUL, 0xE9F58216UL, 0xD595611EUL, 0x60B7C826UL, 0x5CD72B2EUL,
    0x18760E36UL, 0x2416ED3EUL, 0xA9425A07UL, 0x9522B90FUL, 0xD1839C17UL, 0xEDE37F1FUL,
    0x58C1D627UL, 0x64A1352FUL, 0x20001037UL, 0x1C60F33FUL, 0x18C1F649UL, 0x24A11541UL,
    0x60003059UL, 0x5C60D351UL, 0xE9427A69UL, 0xD5229961UL, 0x9183BC79UL, 0xADE35F71UL,
    0x20B7E848UL, 0x1CD70B40UL, 0x58762E58UL, 0x6416CD50UL, 0xD1346468UL, 0xED548760UL,
    0xA9F5A278UL, 0x95954170UL, 0x682DCA4BUL, 0x544D2943UL, 0x10EC0C5BUL, 0x2C8CEF53UL,
    0x99AE466BUL, 0xA5CEA563UL, 0xE16F807BUL, 0xDD0F6373UL, 0x505BD44AUL, 0x6C3B3742UL,
    0x289A125AUL, 0x14FAF152UL, 0xA1D8586AUL, 0x9DB8BB62UL, 0xD9199E7AUL, 0xE5797D72UL,
    0xF9198E4DUL, 0xC5796D45UL, 0x81D8485DUL, 0xBDB8AB55UL, 0x089A026DUL, 0x34FAE165UL,
    0x705BC47DUL, 0x4C3B2775UL, 0xC16F904CUL, 0xFD0F7344UL, 0xB9AE565CUL, 0x85CEB554UL,
    0x30EC1C6CUL, 0x0C8CFF64UL, 0x482DDA7CUL, 0x744D3974UL, 0x89F5B24FUL, 0xB5955147UL,
    0xF134745FUL, 0xCD549757UL, 0x78763E6FUL, 0x4416DD67UL, 0x00B7F87FUL, 0x3CD71B77UL,
    0xB183AC4EUL, 0x8DE34F46UL, 0xC9426A5EUL, 0xF5228956UL, 0x4000206EUL, 0x7C60C366UL,
    0x38C1E67EUL, 0x04A10576UL, 0x3183EC92UL, 0x0DE30F9AUL, 0x49422A82UL, 0x7522C98AUL,
    0xC00060B2UL, 0xFC6083BAUL, 0xB8C1A6A2UL, 0x84A145AAUL, 0x09F5F293UL, 0x3595119BUL,
    0x71343483UL, 0x4D54D78BUL, 0xF8767EB3UL, 0xC4169DBBUL, 0x80B7B8A3UL, 0xBCD75BABUL,
    0x416FD090UL, 0x7D0F3398UL, 0x39AE1680UL, 0x05CEF588UL, 0xB0EC5CB0UL, 0x8C8CBFB8UL,
    0xC82D9AA0UL, 0xF44D79A8UL, 0x7919CE91UL, 0x45792D99UL, 0x01D80881UL, 0x3DB8EB89UL,
    0x889A42B1UL, 0xB4FAA1B9UL, 0xF05B84A1UL, 0xCC3B67A9UL, 0xD05B9496UL, 0xEC3B779EUL,
    0xA89A5286UL, 0x94FAB18EUL, 0x21D818B6UL, 0x1DB8FBBEUL, 0x5919DEA6UL, 0x65793DAEUL,
    0xE82D8A97UL, 0xD44D699FUL, 0x90EC4C87UL, 0xAC8CAF8FUL, 0x19AE06B7UL, 0x25CEE5BFUL,
    0x616FC0A7UL, 0x5D0F23AFUL, 0xA0B7A894UL, 0x9CD74B9CUL, 0xD8766E84UL, 0xE4168D8CUL,
    0x513424B4UL, 0x6D54C7BCUL, 0x29F5E2A4UL, 0x159501ACUL, 0x98C1B695UL, 0xA4A1559DUL,
    0xE0007085UL, 0xDC60938DUL, 0x69423AB5UL, 0x5522D9BDUL, 0x1183FCA5UL, 0x2DE31FADUL,
    0x29421ADBUL, 0x1522F9D3UL, 0x5183DCCBUL, 0x6DE33FC3UL, 0xD8C196FBUL, 0xE4A175F3UL,
    0xA00050EBUL, 0x9C60B3E3UL, 0x113404DAUL, 0x2D54E7D2UL, 0x69F5C2CAUL, 0x559521C2UL,
    0xE0B788FAUL, 0xDCD76BF2UL, 0x98764EEAUL, 0xA416ADE2UL, 0x59AE26D9UL, 0x65CEC5D1UL,
    0x216FE0C9UL, 0x1D0F03C1UL, 0xA82DAAF9UL, 0x944D49F1UL, 0xD0EC6CE9UL, 0xEC8C8FE1UL,
    0x61D838D8UL, 0x5DB8DBD0UL, 0x1919FEC8UL, 0x25791DC0UL, 0x905BB4F8UL, 0xAC3B57F0UL,
    0xE89A72E8UL, 0xD4FA91E0UL, 0xC89A62DFUL, 0xF4FA81D7UL, 0xB05BA4CFUL, 0x8C3B47C7UL,
    0x3919EEFFUL, 0x05790DF7UL, 0x41D828EFUL, 0x7DB8CBE7UL, 0xF0EC7CDEUL, 0xCC8C9FD6UL,
    0x882DBACEUL, 0xB44D59C6UL, 0x016FF0FEUL, 0x3D0F13F6UL, 0x79AE36EEUL, 0x45CED5E6UL,
    0xB8765EDDUL, 0x8416BDD5UL, 0xC0B798CDUL, 0xFCD77BC5UL, 0x49F5D2FDUL, 0x759531F5UL,
    0x313414EDUL, 0x0D54F7E5UL, 0x800040DCUL, 0xBC60A3D4UL, 0xF8C186CCUL, 0xC4A165C4UL,
    0x7183CCFCUL, 0x4DE32FF4UL, 0x09420AECUL, 0x3522E9E4UL,
  },
  {
    0x00000000UL, 0x0EE7E8D1UL, 0x1DCFD1A2UL, 0x13283973UL, 0x3B9FA344UL, 0x35784B95UL,
    0x265072E6UL, 0x28B79A37UL, 0x773F4688UL, 0x79D8AE59UL, 0x6AF0972AUL, 0x64177FFBUL,
    0x4CA0E5CCUL, 0x42470D1DUL, 0x516F346EUL, 0x5F88DCBFUL, 0xEE7E8D10UL, 0xE09965C1UL,
    0xF3B15CB2UL, 0xFD56B463UL, 0xD5E12E54UL, 0xDB06C685UL, 0xC82EFFF6UL, 0xC6C91727UL,
    0x9941CB98UL, 0x97A62349UL, 0x848E1A3AUL, 0x8A69F2EBUL, 0xA2DE68DCUL, 0xAC39800DUL,
    0xBF11B97EUL, 0xB1F651AFUL, 0x078C1C61UL, 0x096BF4B0UL, 0x1A43CDC3UL, 0x14A42512UL,
    0x3C13BF25UL, 0x32F457F4UL, 0x21DC6E87UL, 0x2F3B8656UL, 0x70B35AE9UL, 0x7E54B238UL,
    0x6D7C8B4BUL, 0x639B639AUL, 0x4B2CF9ADUL, 0x45CB117CUL, 0x56E3280FUL, 0x5804C0DEUL,
    0xE9F29171UL, 0xE71579A0UL, 0xF43D40D3UL, 0xFADAA802UL, 0xD26D3235UL, 0xDC8ADAE4UL,
    0xCFA2E397UL, 0xC1450B46UL, 0x9ECDD7F9UL, 0x902A3F28UL, 0x8302065BUL, 0x8DE5EE8AUL,
    0xA55274BDUL, 0xABB59C6CUL, 0xB89DA51FUL, 0xB67A4DCEUL, 0x0F1838C2UL, 0x01FFD013UL,
    0x12D7E960UL, 0x1C3001B1UL, 0x34879B86UL, 0x3A607357UL, 0x29484A24UL, 0x27AFA2F5UL,
    0x78277E4AUL, 0x76C0969BUL, 0x65E8AFE8UL, 0x6B0F4739UL, 0x43B8DD0EUL, 0x4D5F35DFUL,
    0x5E770CACUL, 0x5090E47DUL, 0xE166B5D2UL, 0xEF815D03UL, 0xFCA96470UL, 0xF24E8CA1UL,
    0xDAF91696UL, 0xD41EFE47UL, 0xC736C734UL, 0xC9D12FE5UL, 0x9659F35AUL, 0x98BE1B8BUL,
    0x8B9622F8UL, 0x8571CA29UL, 0xADC6501EUL, 0xA321B8CFUL, 0xB00981BCUL, 0xBEEE696DUL,
    0x089424A3UL, 0x0673CC72UL, 0x155BF501UL, 0x1BBC1DD0UL, 0x330B87E7UL, 0x3DEC6F36UL,
    0x2EC45645UL, 0x2023BE94UL, 0x7FAB622BUL, 0x714C8AFAUL, 0x6264B389UL, 0x6C835B58UL,
    0x4434C16FUL, 0x4AD329BEUL, 0x59FB10CDUL, 0x571CF81CUL, 0xE6EAA9B3UL, 0xE80D4162UL,
    0xFB257811UL, 0xF5C290C0UL, 0xDD750AF7UL, 0xD392E226UL, 0xC0BADB55UL, 0xCE5D3384UL,
    0x91D5EF3BUL, 0x9F3207EAUL, 0x8C1A3E99UL, 0x82FDD648UL, 0xAA4A4C7FUL, 0xA4ADA4AEUL,
    0xB7859DDDUL, 0xB962750CUL, 0x1E307184UL, 0x10D79955UL, 0x03FFA026UL, 0x0D1848F7UL,
    0x25AFD2C0UL, 0x2B483A11UL, 0x38600362UL, 0x3687EBB3UL, 0x690F370CUL, 0x67E8DFDDUL,
    0x74C0E6AEUL, 0x7A270E7FUL, 0x52909448UL, 0x5C777C99UL, 0x4F5F45EAUL, 0x41B8AD3BUL,
    0xF04EFC94UL, 0xFEA91445UL, 0xED812D36UL, 0xE366C5E7UL, 0xCBD15FD0UL, 0xC536B701UL,
    0xD61E8E72UL, 0xD8F966A3UL, 0x8771BA1CUL, 0x899652CDUL, 0x9ABE6BBEUL, 0x9459836FUL,
    0xBCEE1958UL, 0xB209F189UL, 0xA121C8FAUL, 0xAFC6202BUL, 0x19BC6DE5UL, 0x175B8534UL,
    0x0473BC47UL, 0x0A945496UL, 0x2223CEA1UL, 0x2CC42670UL, 0x3FEC1F03UL, 0x310BF7D2UL,
    0x6E832B6DUL, 0x6064C3BCUL, 0x734CFACFUL, 0x7DAB121EUL, 0x551C8829UL, 0x5BFB60F8UL,
    0x48D3598BUL, 0x4634B15AUL, 0xF7C2E0F5UL, 0xF9250824UL, 0xEA0D3157UL, 0xE4EAD986UL,
    0xCC5D43B1UL, 0xC2BAAB60UL, 0xD1929213UL, 0xDF757AC2UL, 0x80FDA67DUL, 0x8E1A4EACUL,
    0x9D3277DFUL, 0x93D59F0EUL, 0xBB620539UL, 0xB585EDE8UL, 0xA6ADD49BUL, 0xA84A3C4AUL,
    0x11284946UL, 0x1FCFA197UL, 0x0CE798E4UL, 0x02007035UL, 0x2AB7EA02UL, 0x245002D3UL,
    0x37783BA0UL, 0x399FD371UL, 0x66170FCEUL, 0x68F0E71FUL, 0x7BD8DE6CUL, 0x753F36BDUL,
    0x5D88AC8AUL, 0x536F445BUL, 0x40477D28UL, 0x4EA095F9UL, 0xFF56C456UL, 0xF1B12C87UL,
    0xE29915F4UL, 0xEC7EFD25UL, 0xC4C96712UL, 0xCA2E8FC3UL, 0xD906B6B0UL, 0xD7E15E61UL,
    0x886982DEUL, 0x868E6A0FUL, 0x95A6537CUL, 0x9B41BBADUL, 0xB3F6219AUL, 0xBD11C94BUL,
    0xAE39F038UL, 0xA0DE18E9UL, 0x16A45527UL, 0x1843BDF6UL, 0x0B6B8485UL, 0x058C6C54UL,
    0x2D3BF663UL, 0x23DC1EB2UL, 0x30F427C1UL, 0x3E13CF10UL, 0x619B13AFUL, 0x6F7CFB7EUL,
    0x7C54C20DUL, 0x72B32ADCUL, 0x5A04B0EBUL, 0x54E3583AUL, 0x47CB6149UL, 0x492C8998UL,
    0xF8DAD837UL, 0xF63D30E6UL, 0xE5150995UL, 0xEBF2E144UL, 0xC3457B73UL, 0xCDA293A2UL,
    0xDE8AAAD1UL, 0xD06D4200UL, 0x8FE59EBFUL, 0x8102766EUL, 0x922A4F1DUL, 0x9CCDA7CCUL,
    0xB47A3DFBUL, 0xBA9DD52AUL, 0xA9B5EC59UL, 0xA7520488UL,
  },
  {
    0x00000000UL, 0xF1DA05AAUL, 0x38C50D15UL, 0xC91F08BFUL, 0x718A1A2AUL, 0x80501F80UL,
    0x494F173FUL, 0xB8951295UL, 0xE3143454UL, 0x12CE31FEUL, 0xDBD13941UL, 0x2A0B3CEBUL,
    0x929E2E7EUL, 0x63442BD4UL, 0xAA5B236BUL, 0x5B8126C1UL, 0x1D596EE9UL, 0xEC836B43UL,
    0x259C63FCUL, 0xD4466656UL, 0x6CD374C3UL, 0x9D097169UL, 0x541679D6UL, 0xA5CC7C7CUL,
    0xFE4D5ABDUL, 0x0F975F17UL, 0xC68857A8UL, 0x37525202UL, 0x8FC74097UL, 0x7E1D453DUL,
    0xB7024D82UL, 0x46D84828UL, 0x3AB2DDD2UL, 0xCB68D878UL, 0x0277D0C7UL, 0xF3ADD56DUL,
    0x4B38C7F8UL, 0xBAE2C252UL, 0x73FDCAEDUL, 0x8227CF47UL, 0xD9A6E986UL, 0x287CEC2CUL,
    0xE163E493UL, 0x10B9E139UL, 0xA82CF3ACUL, 0x59F6F606UL, 0x90E9FEB9UL, 0x6133FB13UL,
    0x27EBB33BUL, 0xD631B691UL, 0x1F2EBE2EUL, 0xEEF4BB84UL, 0x5661A911UL, 0xA7BBACBBUL,
    0x6EA4A404UL, 0x9F7EA1AEUL, 0xC4FF876FUL, 0x352582C5UL, 0xFC3A8A7AUL, 0x0DE08FD0UL,
    0xB5759D45UL, 0x44AF98EFUL, 0x8DB09050UL, 0x7C6A95FAUL, 0x7565BBA4UL, 0x84BFBE0EUL,
    0x4DA0B6B1UL, 0xBC7AB31BUL, 0x04EFA18EUL, 0xF535A424UL, 0x3C2AAC9BUL, 0xCDF0A931UL,
    0x96718FF0UL, 0x67AB8A5AUL, 0xAEB482E5UL, 0x5F6E874FUL, 0xE7FB95DAUL, 0x16219070UL,
    0xDF3E98CFUL, 0x2EE49D65UL, 0x683CD54DUL, 0x99E6D0E7UL, 0x50F9D858UL, 0xA123DDF2UL,
    0x19B6CF67UL, 0xE86CCACDUL, 0x2173C272UL, 0xD0A9C7D8UL, 0x8B28E119UL, 0x7AF2E4B3UL,
    0xB3EDEC0CUL, 0x4237E9A6UL, 0xFAA2FB33UL, 0x0B78FE99UL, 0xC267F626UL, 0x33BDF38CUL,
    0x4FD76676UL, 0xBE0D63DCUL, 0x77126B63UL, 0x86C86EC9UL, 0x3E5D7C5CUL, 0xCF8779F6UL,
    0x06987149UL, 0xF74274E3UL, 0xACC35222UL, 0x5D195788UL, 0x94065F37UL, 0x65DC5A9DUL,
    0xDD494808UL, 0x2C934DA2UL, 0xE58C451DUL, 0x145640B7UL, 0x528E089FUL, 0xA3540D35UL,
    0x6A4B058AUL, 0x9B910020UL, 0x230412B5UL, 0xD2DE171FUL, 0x1BC11FA0UL, 0xEA1B1A0AUL,
    0xB19A3CCBUL, 0x40403961UL, 0x895F31DEUL, 0x78853474UL, 0xC01026E1UL, 0x31CA234BUL,
    0xF8D52BF4UL, 0x090F2E5EUL, 0xEACB7748UL, 0x1B1172E2UL, 0xD20E7A5DUL, 0x23D47FF7UL,
    0x9B416D62UL, 0x6A9B68C8UL, 0xA3846077UL, 0x525E65DDUL, 0x09DF431CUL, 0xF80546B6UL,
    0x311A4E09UL, 0xC0C04BA3UL, 0x78555936UL, 0x898F5C9CUL, 0x40905423UL, 0xB14A5189UL,
    0xF79219A1UL, 0x06481C0BUL, 0xCF5714B4UL, 0x3E8D111EUL, 0x8618038BUL, 0x77C20621UL,
    0xBEDD0E9EUL, 0x4F070B34UL, 0x14862DF5UL, 0xE55C285FUL, 0x2C4320E0UL, 0xDD99254AUL,
    0x650C37DFUL, 0x94D63275UL, 0x5DC93ACAUL, 0xAC133F60UL, 0xD079AA9AUL, 0x21A3AF30UL,
    0xE8BCA78FUL, 0x1966A225UL, 0xA1F3B0B0UL, 0x5029B51AUL, 0x9936BDA5UL, 0x68ECB80FUL,
    0x336D9ECEUL, 0xC2B79B64UL, 0x0BA893DBUL, 0xFA729671UL, 0x42E784E4UL, 0xB33D814EUL,
    0x7A2289F1UL, 0x8BF88C5BUL, 0xCD20C473UL, 0x3CFAC1D9UL, 0xF5E5C966UL, 0x043FCCCCUL,
    0xBCAADE59UL, 0x4D70DBF3UL, 0x846FD34CUL, 0x75B5D6E6UL, 0x2E34F027UL, 0xDFEEF58DUL,
    0x16F1FD32UL, 0xE72BF898UL, 0x5FBEEA0DUL, 0xAE64EFA7UL, 0x677BE718UL, 0x96A1E2B2UL,
    0x9FAECCECUL, 0x6E74C946UL, 0xA76BC1F9UL, 0x56B1C453UL, 0xEE24D6C6UL, 0x1FFED36CUL,
    0xD6E1DBD3UL, 0x273BDE79UL, 0x7CBAF8B8UL, 0x8D60FD12UL, 0x447FF5ADUL, 0xB5A5F007UL,
    0x0D30E292UL, 0xFCEAE738UL, 0x35F5EF87UL, 0xC42FEA2DUL, 0x82F7A205UL, 0x732DA7AFUL,
    0xBA32AF10UL, 0x4BE8AABAUL, 0xF37DB82FUL, 0x02A7BD85UL, 0xCBB8B53AUL, 0x3A62B090UL,
    0x61E39651UL, 0x903993FBUL, 0x59269B44UL, 0xA8FC9EEEUL, 0x10698C7BUL, 0xE1B389D1UL,
    0x28AC816EUL, 0xD97684C4UL, 0xA51C113EUL, 0x54C61494UL, 0x9DD91C2BUL, 0x6C031981UL,
    0xD4960B14UL, 0x254C0EBEUL, 0xEC530601UL, 0x1D8903ABUL, 0x4608256AUL, 0xB7D220C0UL,
    0x7ECD287FUL, 0x8F172DD5UL, 0x37823F40UL, 0xC6583AEAUL, 0x0F473255UL, 0xFE9D37FFUL,
    0xB8457FD7UL, 0x499F7A7DUL, 0x808072C2UL, 0x715A7768UL, 0xC9CF65FDUL, 0x38156057UL,
    0xF10A68E8UL, 0x00D06D42UL, 0x5B514B83UL, 0xAA8B4E29UL, 0x63944696UL, 0x924E433CUL,
    0x2ADB51A9UL, 0xDB015403UL, 0x121E5CBCUL, 0xE3C45916UL,
  },
#endif
};
#endif
#endif
#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
/* Carry-less-multiply constants, P = the CRC polynomial. Bit i holds the coefficient of
 * x^(31-i) (x^(32-i) in the two 33-bit ones): the reflected CRC's bit order. A 16-byte block
 * is H*x^64 + L (H = its first 8 bytes, the low qword); moving it d bits on multiplies it by
 * x^d, done as H*(x^(d+64) mod P) + L*(x^d mod P). A PCLMULQDQ of a half (bit i = x^(63-i))
 * and a constant (bit j = x^(31-j)) has bit m = x^(94-m): the product times x^33 in the
 * block's frame, so FdH = x^(d+31) mod P multiplies H and FdL = x^(d-33) mod P multiplies L;
 * d = 128, 256, 384 bits (1-3 blocks), 512 (4 blocks: the 4 x 128-bit accumulators, or the
 * lanes of one 512-bit register), 2048 (4 x 512-bit registers). */
#define ACCEL__CRC32_F128H  0x0AE689191ULL /* x^159 mod P */
#define ACCEL__CRC32_F128L  0x0CCAA009EULL /* x^95 mod P */
#define ACCEL__CRC32_F256H  0x0F1DA05AAULL /* x^287 mod P */
#define ACCEL__CRC32_F256L  0x081256527ULL /* x^223 mod P */
#define ACCEL__CRC32_F384H  0x03DB1ECDCULL /* x^415 mod P */
#define ACCEL__CRC32_F384L  0x0AF449247ULL /* x^351 mod P */
#define ACCEL__CRC32_F512H  0x08F352D95ULL /* x^543 mod P */
#define ACCEL__CRC32_F512L  0x01D9513D7ULL /* x^479 mod P */
#define ACCEL__CRC32_F2048H 0x0CE3371CBULL /* x^2079 mod P */
#define ACCEL__CRC32_F2048L 0x0E95C1271ULL /* x^2015 mod P */
#define ACCEL__CRC32_R96    0x0CCAA009EULL /* x^95 mod P: 128 -> 96 bits (H*x^96) */
#define ACCEL__CRC32_R64    0x0B8BC6765ULL /* x^63 mod P: 96 -> 64 bits (top 32 bits * x^64) */
#define ACCEL__CRC32_MU     0x1F7011641ULL /* floor(x^64 / P), 33 bits: Barrett's quotient */
#define ACCEL__CRC32_P      0x1DB710641ULL /* P, 33 bits */
#endif
/* end of the generated crc32 tables */

#if ACCEL_CRC32_SIMD
#ifdef __cplusplus
} /* the intrinsics headers stay outside extern "C" */
#endif
#if ACCEL_CRC32_SIMD == 3
#include <arm_acle.h>
#elif defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
/* g++ 12 warns inside its own AVX-512 headers once they are inlined (see the mac section) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h> /* hosted x86-64 only (not a freestanding header) */
#endif
#ifdef __cplusplus
extern "C" {
#endif
#endif

/* One slicing-by-8 step: the CRC register after the 8 bytes lo (first four, the register already
 * folded in) and hi, through rows t[0..7] (rows 8..15 give the braid's 32-byte jump). */
#define ACCEL__CRC32_SLICE(t, lo, hi)                                                           \
    ((t)[7][(lo) & 0xFFu] ^ (t)[6][((lo) >> 8) & 0xFFu] ^ (t)[5][((lo) >> 16) & 0xFFu] ^       \
     (t)[4][(lo) >> 24] ^ (t)[3][(hi) & 0xFFu] ^ (t)[2][((hi) >> 8) & 0xFFu] ^                 \
     (t)[1][((hi) >> 16) & 0xFFu] ^ (t)[0][(hi) >> 24])

#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
/* x86-64: carry-less-multiply folding. The data are 16-byte blocks, each a polynomial of degree
 * < 128 (the algebra is at the constants). Accumulators are folded forward over the data (moved on
 * by a multiple of 128 bits modulo P, xored with the block they land on), the last block absorbs
 * a short tail, and a Barrett reduction turns the final 128 bits into the 32-bit register. */
#define ACCEL__CRC32_K2(h, l) _mm_set_epi64x((long long)(l), (long long)(h))
#define ACCEL__CRC32_K(d) ACCEL__CRC32_K2(ACCEL__CRC32_F##d##H, ACCEL__CRC32_F##d##L)
static __m128i accel__crc32_ld16(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
/* x moved on by k's distance: x's low qword times k's low plus x's high qword times k's high */
static __m128i accel__crc32_fold16(__m128i x, __m128i k)
{
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

#if ACCEL_CRC32_SIMD == 2
/* the same on the four blocks of a 512-bit register, xored with d */
static __m512i accel__crc32_fold64(__m512i z, __m512i k, __m512i d)
{
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(z, k, 0x00),
                                     _mm512_clmulepi64_epi128(z, k, 0x11), d, 0x96); /* a^b^c */
}
static __m512i accel__crc32_ld64(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}
/* n >= 256: folds the first n - n % 64 bytes with four 512-bit accumulators (256 bytes a round)
 * and returns them folded into one 16-byte block, the state the 128-bit code continues from. */
static __m128i accel__crc32_clmul512(uint32_t c, const uint8_t *p, size_t n)
{
    const __m512i k2048 = _mm512_broadcast_i32x4(ACCEL__CRC32_K(2048));
    const __m512i k512 = _mm512_broadcast_i32x4(ACCEL__CRC32_K(512));
    /* the end: lanes 0, 1, 2 move 3, 2, 1 blocks on, onto lane 3 (lane 3 itself stays) */
    const __m512i zero = _mm512_setzero_si512();
    const __m512i kl = _mm512_inserti32x4(
        _mm512_inserti32x4(_mm512_inserti32x4(zero, ACCEL__CRC32_K(384), 0), ACCEL__CRC32_K(256), 1),
        ACCEL__CRC32_K(128), 2);
    __m512i z0 = accel__crc32_ld64(p), z1 = accel__crc32_ld64(p + 64);
    __m512i z2 = accel__crc32_ld64(p + 128), z3 = accel__crc32_ld64(p + 192);
    z0 = _mm512_xor_si512(z0, _mm512_inserti32x4(zero, _mm_cvtsi32_si128((int)c), 0));
    for (p += 256, n -= 256; n >= 256; p += 256, n -= 256) {
        z0 = accel__crc32_fold64(z0, k2048, accel__crc32_ld64(p));
        z1 = accel__crc32_fold64(z1, k2048, accel__crc32_ld64(p + 64));
        z2 = accel__crc32_fold64(z2, k2048, accel__crc32_ld64(p + 128));
        z3 = accel__crc32_fold64(z3, k2048, accel__crc32_ld64(p + 192));
    }
    z1 = accel__crc32_fold64(z0, k512, z1);
    z2 = accel__crc32_fold64(z1, k512, z2);
    z3 = accel__crc32_fold64(z2, k512, z3);
    for (; n >= 64; p += 64, n -= 64) z3 = accel__crc32_fold64(z3, k512, accel__crc32_ld64(p));
    z3 = _mm512_mask_blend_epi64(0x3F, z3, accel__crc32_fold64(z3, kl, zero));
    return _mm_xor_si128(
        _mm_xor_si128(_mm512_extracti32x4_epi32(z3, 0), _mm512_extracti32x4_epi32(z3, 1)),
        _mm_xor_si128(_mm512_extracti32x4_epi32(z3, 2), _mm512_extracti32x4_epi32(z3, 3)));
}
#endif

/* c: the CRC register (inverted), n >= 16; returns the register after p[0..n) */
static uint32_t accel__crc32_clmul(uint32_t c, const uint8_t *p, size_t n)
{
    /* PSHUFB masks (0x80 gives a zero byte): from shuf + r, byte i takes byte i - (16 - r) (the
     * first r bytes land at the top); from shuf + 16 + r, byte i takes byte i + r. */
    static const uint8_t shuf[48] = {
        0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        0x80, 0x80, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80,
        0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
    const __m128i k128 = ACCEL__CRC32_K(128);
    const __m128i kr = ACCEL__CRC32_K2(ACCEL__CRC32_R96, ACCEL__CRC32_R64);
    const __m128i kb = ACCEL__CRC32_K2(ACCEL__CRC32_MU, ACCEL__CRC32_P);
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i x, y;
#if ACCEL_CRC32_SIMD == 2
    if (n >= 256) {
        x = accel__crc32_clmul512(c, p, n);
        p += n - n % 64;
        n %= 64;
    } else
#endif
    {
        x = _mm_xor_si128(accel__crc32_ld16(p), _mm_cvtsi32_si128((int)c));
        p += 16;
        n -= 16;
        if (n >= 48) { /* four accumulators, 64 bytes a round */
            const __m128i k512 = ACCEL__CRC32_K(512);
            __m128i x1 = accel__crc32_ld16(p), x2 = accel__crc32_ld16(p + 16);
            __m128i x3 = accel__crc32_ld16(p + 32);
            for (p += 48, n -= 48; n >= 64; p += 64, n -= 64) {
                x = _mm_xor_si128(accel__crc32_fold16(x, k512), accel__crc32_ld16(p));
                x1 = _mm_xor_si128(accel__crc32_fold16(x1, k512), accel__crc32_ld16(p + 16));
                x2 = _mm_xor_si128(accel__crc32_fold16(x2, k512), accel__crc32_ld16(p + 32));
                x3 = _mm_xor_si128(accel__crc32_fold16(x3, k512), accel__crc32_ld16(p + 48));
            }
            x = _mm_xor_si128(accel__crc32_fold16(x, ACCEL__CRC32_K(384)),
                              accel__crc32_fold16(x1, ACCEL__CRC32_K(256)));
            x = _mm_xor_si128(x, _mm_xor_si128(accel__crc32_fold16(x2, k128), x3));
        }
    }
    for (; n >= 16; p += 16, n -= 16)
        x = _mm_xor_si128(accel__crc32_fold16(x, k128), accel__crc32_ld16(p));
    if (n) {
        /* r = n tail bytes: x * x^(8r) + tail = (x's first r bytes) * x^128 + (x's other 16 - r
         * bytes followed by the tail); the tail is read as the last 16 bytes of the input */
        __m128i m = accel__crc32_ld16(shuf + 16 + n);
        __m128i h = _mm_shuffle_epi8(x, accel__crc32_ld16(shuf + n));
        x = _mm_blendv_epi8(_mm_shuffle_epi8(x, m), accel__crc32_ld16(p + n - 16), m);
        x = _mm_xor_si128(accel__crc32_fold16(h, k128), x);
    }
    /* x * x^32 mod P: 128 -> 96 bits (the first 8 bytes times x^96), 96 -> 64 bits (the top 32
     * times x^64), then Barrett: q = floor(top 32 bits * MU / x^32), remainder = low bits of
     * (value ^ q * P). Each product is one bit short of the frame (see the constants), which
     * the exponents already absorb. */
    y = _mm_xor_si128(_mm_clmulepi64_si128(x, kr, 0x00), _mm_srli_si128(x, 8));
    x = _mm_clmulepi64_si128(_mm_and_si128(y, low32), kr, 0x10);
    y = _mm_xor_si128(x, _mm_srli_si128(y, 4));
    x = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(y, low32), kb, 0x00), low32);
    y = _mm_xor_si128(y, _mm_clmulepi64_si128(x, kb, 0x10));
    return (uint32_t)_mm_extract_epi32(y, 1);
}
#endif

ACCELDEF uint32_t accel_crc32_update(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = (const uint8_t *)data;
    uint32_t c = crc ^ 0xFFFFFFFFu;
    if (!p) return crc;
#if ACCEL_CRC32_SIMD == 3
    /* AArch64 CRC32X/W/H/B: CRC-32 with the same reflected polynomial, no pre/post inversion */
    for (; n >= 32; p += 32, n -= 32) {
        c = __crc32d(c, accel_load_u64le(p));
        c = __crc32d(c, accel_load_u64le(p + 8));
        c = __crc32d(c, accel_load_u64le(p + 16));
        c = __crc32d(c, accel_load_u64le(p + 24));
    }
    for (; n >= 8; p += 8, n -= 8) c = __crc32d(c, accel_load_u64le(p));
    if (n & 4) {
        c = __crc32w(c, accel_load_u32le(p));
        p += 4;
    }
    if (n & 2) {
        c = __crc32h(c, accel_load_u16le(p));
        p += 2;
    }
    if (n & 1) c = __crc32b(c, *p);
#else
#if ACCEL_CRC32_SIMD == 1 || ACCEL_CRC32_SIMD == 2
    if (n >= 16) return accel__crc32_clmul(c, p, n) ^ 0xFFFFFFFFu;
#endif
#if ACCEL_CRC32_IMPL == ACCEL_CRC32_BITWISE
    while (n--) {
        unsigned k;
        c ^= *p++;
        for (k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
#elif ACCEL_CRC32_IMPL == ACCEL_CRC32_NIBBLE
    while (n--) {
        c ^= *p++;
        c = (c >> 4) ^ accel__crc32_nibble[c & 0xFu];
        c = (c >> 4) ^ accel__crc32_nibble[c & 0xFu];
    }
#elif ACCEL_CRC32_IMPL == ACCEL_CRC32_TABLE256
    while (n--) c = (c >> 8) ^ accel__crc32_t8[0][(c ^ *p++) & 0xFFu];
#else
    /* byte loads only (no alignment or endianness assumptions); compilers merge them */
#if ACCEL__CRC32_BRAID
    if (n >= 64) {
        /* Braid: four lanes of 8-byte words, 32-byte rows. Lane k keeps r_k, what its words so
         * far contribute, as a register value for the first 4 bytes of its next word: byte j
         * of a word reaches there through 31 - j zero bytes, i.e. rows 24..31 (stored as
         * 8..15). The four table chains are independent, so they overlap in the CPU. */
        const uint32_t(*b)[256] = accel__crc32_t8 + 8;
        uint32_t r0 = c, r1 = 0, r2 = 0, r3 = 0, lo, hi;
        do {
            lo = r0 ^ accel_load_u32le(p), hi = accel_load_u32le(p + 4);
            r0 = ACCEL__CRC32_SLICE(b, lo, hi);
            lo = r1 ^ accel_load_u32le(p + 8), hi = accel_load_u32le(p + 12);
            r1 = ACCEL__CRC32_SLICE(b, lo, hi);
            lo = r2 ^ accel_load_u32le(p + 16), hi = accel_load_u32le(p + 20);
            r2 = ACCEL__CRC32_SLICE(b, lo, hi);
            lo = r3 ^ accel_load_u32le(p + 24), hi = accel_load_u32le(p + 28);
            r3 = ACCEL__CRC32_SLICE(b, lo, hi);
            p += 32;
            n -= 32;
        } while (n >= 64);
        /* the last row: each lane's remainder joins its word, and the words go through the
         * register one after another */
        lo = r0 ^ accel_load_u32le(p), hi = accel_load_u32le(p + 4);
        c = ACCEL__CRC32_SLICE(accel__crc32_t8, lo, hi);
        lo = c ^ r1 ^ accel_load_u32le(p + 8), hi = accel_load_u32le(p + 12);
        c = ACCEL__CRC32_SLICE(accel__crc32_t8, lo, hi);
        lo = c ^ r2 ^ accel_load_u32le(p + 16), hi = accel_load_u32le(p + 20);
        c = ACCEL__CRC32_SLICE(accel__crc32_t8, lo, hi);
        lo = c ^ r3 ^ accel_load_u32le(p + 24), hi = accel_load_u32le(p + 28);
        c = ACCEL__CRC32_SLICE(accel__crc32_t8, lo, hi);
        p += 32;
        n -= 32;
    }
#endif
    while (n >= 8) { /* slicing-by-8 */
        uint32_t lo = c ^ accel_load_u32le(p);
        uint32_t hi = accel_load_u32le(p + 4);
        c = ACCEL__CRC32_SLICE(accel__crc32_t8, lo, hi);
        p += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ accel__crc32_t8[0][(c ^ *p++) & 0xFFu];
#endif
#endif
    return c ^ 0xFFFFFFFFu;
}

ACCELDEF uint32_t accel_crc32(const void *data, size_t n)
{
    return accel_crc32_update(0, data, n);
}

/* -------------------------------------------------------- @common.ring: slot ring */
ACCELDEF accel_status accel_ring_init(accel_ring *r, void *buf, size_t buf_len, size_t slot_size)
{
    if (!r || !buf) return ACCEL_E_NULL;
    if (slot_size == 0 || buf_len == 0) return ACCEL_E_ZERO_LENGTH;
    if (buf_len < slot_size) return ACCEL_E_BUFFER_TOO_SMALL;
    r->buf = (uint8_t *)buf;
    r->slot_size = slot_size;
    r->cap = buf_len / slot_size;
    r->head = 0;
    r->count = 0;
    return ACCEL_OK;
}

static uint8_t *accel__ring_slot(const accel_ring *r, size_t i)
{
    size_t idx = r->head + i;
    ACCEL_ASSERT(r->head < r->cap && r->count <= r->cap && i < r->cap);
    if (idx >= r->cap) idx -= r->cap;
    return r->buf + idx * r->slot_size;
}

ACCELDEF accel_status accel_ring_push(accel_ring *r, const void *slot)
{
    if (!r || !slot || !r->buf) return ACCEL_E_NULL;
    if (r->count >= r->cap) return ACCEL_E_FULL;
    ACCEL_MEMCPY(accel__ring_slot(r, r->count), slot, r->slot_size);
    r->count++;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ring_peek(const accel_ring *r, void *slot_out)
{
    if (!r || !slot_out || !r->buf) return ACCEL_E_NULL;
    if (r->count == 0) return ACCEL_E_EMPTY;
    ACCEL_MEMCPY(slot_out, accel__ring_slot(r, 0), r->slot_size);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ring_pop(accel_ring *r, void *slot_out)
{
    if (!r || !r->buf) return ACCEL_E_NULL;
    if (r->count == 0) return ACCEL_E_EMPTY;
    if (slot_out) ACCEL_MEMCPY(slot_out, accel__ring_slot(r, 0), r->slot_size);
    r->head = (r->head + 1 == r->cap) ? 0 : r->head + 1;
    r->count--;
    return ACCEL_OK;
}

ACCELDEF void *accel_ring_at(const accel_ring *r, size_t i)
{
    if (!r || !r->buf || i >= r->count) return NULL;
    return accel__ring_slot(r, i);
}

ACCELDEF size_t accel_ring_count(const accel_ring *r) { return r ? r->count : 0; }
ACCELDEF size_t accel_ring_capacity(const accel_ring *r) { return r ? r->cap : 0; }
ACCELDEF int accel_ring_full(const accel_ring *r) { return r ? r->count >= r->cap : 1; }
ACCELDEF int accel_ring_empty(const accel_ring *r) { return r ? r->count == 0 : 1; }
ACCELDEF void accel_ring_clear(accel_ring *r)
{
    if (!r) return;
    r->head = 0;
    r->count = 0;
}

/* -------------------------------------------------------- @common.fifo: byte FIFO */
ACCELDEF accel_status accel_fifo_init(accel_fifo *f, void *buf, size_t cap)
{
    if (!f || !buf) return ACCEL_E_NULL;
    if (cap == 0) return ACCEL_E_ZERO_LENGTH;
    f->buf = (uint8_t *)buf;
    f->cap = cap;
    f->head = 0;
    f->count = 0;
    return ACCEL_OK;
}

/* Copy n bytes out of the FIFO, starting `at` bytes past head, in at most two pieces. */
static void accel__fifo_copy_out(const accel_fifo *f, size_t at, uint8_t *dst, size_t n)
{
    size_t start = f->head + at, first;
    ACCEL_ASSERT(f->head < f->cap && f->count <= f->cap && at <= f->count && n <= f->count - at);
    if (start >= f->cap) start -= f->cap;
    first = f->cap - start;
    if (first > n) first = n;
    ACCEL_MEMCPY(dst, f->buf + start, first);
    if (n > first) ACCEL_MEMCPY(dst + first, f->buf, n - first);
}

ACCELDEF accel_status accel_fifo_write(accel_fifo *f, const void *data, size_t n)
{
    if (!f || !f->buf) return ACCEL_E_NULL;
    if (n == 0) return ACCEL_OK;
    if (!data) return ACCEL_E_NULL;
    if (n > f->cap - f->count) return ACCEL_E_FULL;
    {
        const uint8_t *src = (const uint8_t *)data;
        size_t start = f->head + f->count, first;
        ACCEL_ASSERT(f->head < f->cap && f->count + n <= f->cap);
        if (start >= f->cap) start -= f->cap;
        first = f->cap - start;
        if (first > n) first = n;
        ACCEL_MEMCPY(f->buf + start, src, first);
        if (n > first) ACCEL_MEMCPY(f->buf, src + first, n - first);
    }
    f->count += n;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fifo_read(accel_fifo *f, void *dst, size_t max, size_t *got)
{
    size_t n;
    if (got) *got = 0;
    if (!f || !f->buf || !dst || !got) return ACCEL_E_NULL;
    if (max == 0) return ACCEL_E_ZERO_LENGTH;
    if (f->count == 0) return ACCEL_E_EMPTY;
    n = f->count < max ? f->count : max;
    accel__fifo_copy_out(f, 0, (uint8_t *)dst, n);
    f->head += n;
    if (f->head >= f->cap) f->head -= f->cap;
    f->count -= n;
    *got = n;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fifo_peek(const accel_fifo *f, size_t offset, void *dst, size_t n)
{
    if (!f || !f->buf) return ACCEL_E_NULL;
    if (n == 0) return ACCEL_OK;
    if (!dst) return ACCEL_E_NULL;
    if (offset > f->count || n > f->count - offset) return ACCEL_E_TRUNCATED;
    accel__fifo_copy_out(f, offset, (uint8_t *)dst, n);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fifo_discard(accel_fifo *f, size_t n)
{
    if (!f || !f->buf) return ACCEL_E_NULL;
    if (n > f->count) return ACCEL_E_TRUNCATED;
    f->head += n;
    if (f->head >= f->cap) f->head -= f->cap;
    f->count -= n;
    return ACCEL_OK;
}

ACCELDEF size_t accel_fifo_count(const accel_fifo *f) { return f ? f->count : 0; }
ACCELDEF size_t accel_fifo_space(const accel_fifo *f) { return f ? f->cap - f->count : 0; }
ACCELDEF void accel_fifo_clear(accel_fifo *f)
{
    if (!f) return;
    f->head = 0;
    f->count = 0;
}

/* -------------------------------------------------------- @common.deadline: deadlines */
ACCELDEF void accel_deadline_start(accel_deadline *d, uint32_t now_ms, uint32_t timeout_ms)
{
    if (!d) return;
    d->start_ms = now_ms;
    d->timeout_ms = timeout_ms;
}

ACCELDEF int accel_deadline_expired(const accel_deadline *d, uint32_t now_ms)
{
    /* unsigned subtraction: the elapsed time is right across the wrap */
    return !d || (uint32_t)(now_ms - d->start_ms) >= d->timeout_ms;
}

ACCELDEF uint32_t accel_deadline_remaining(const accel_deadline *d, uint32_t now_ms)
{
    uint32_t elapsed;
    if (!d) return 0;
    elapsed = (uint32_t)(now_ms - d->start_ms);
    return elapsed >= d->timeout_ms ? 0 : d->timeout_ms - elapsed;
}

ACCELDEF int32_t accel_time_diff(uint32_t a, uint32_t b)
{
    uint32_t d = (uint32_t)(a - b);
    /* two's complement reinterpretation without implementation-defined conversion */
    if (d <= 0x7FFFFFFFu) return (int32_t)d;
    return -(int32_t)(uint32_t)(0u - d - 1u) - 1;
}

/* -------------------------------------------------------- @common.port: port wrappers */
ACCELDEF accel_status accel_port_spi_transfer(const accel_port *p, uint8_t cs, const uint8_t *tx,
                                              uint8_t *rx, size_t len, unsigned flags)
{
    if (!p) return ACCEL_E_NULL;
    if (!p->spi_transfer) return ACCEL_E_UNSUPPORTED;
    if (len == 0) {
        /* the release of a KEEP_CS transaction: nothing clocked, no buffers passed on */
        if (flags != 0u) return ACCEL_E_ZERO_LENGTH;
        return p->spi_transfer(p->user, cs, NULL, NULL, 0, 0u);
    }
    return p->spi_transfer(p->user, cs, tx, rx, len, flags);
}

ACCELDEF accel_status accel_port_i2c_write_read(const accel_port *p, uint16_t addr,
                                                const uint8_t *w, size_t wlen, uint8_t *r,
                                                size_t rlen)
{
    if (!p) return ACCEL_E_NULL;
    if (!p->i2c_write_read) return ACCEL_E_UNSUPPORTED;
    if ((!w && wlen) || (!r && rlen)) return ACCEL_E_NULL;
    if (wlen == 0 && rlen == 0) return ACCEL_E_ZERO_LENGTH;
    if (addr > 0x7Fu) return ACCEL_E_ARG;
    return p->i2c_write_read(p->user, addr, w, wlen, r, rlen);
}

ACCELDEF accel_status accel_port_usb_control(const accel_port *p, uint8_t request_type,
                                             uint8_t request, uint16_t value, uint16_t index,
                                             uint8_t *data, uint16_t length, uint32_t timeout_ms,
                                             size_t *done)
{
    size_t dummy = 0;
    if (!p) return ACCEL_E_NULL;
    if (!p->usb_control) return ACCEL_E_UNSUPPORTED;
    if (!data && length) return ACCEL_E_NULL;
    return p->usb_control(p->user, request_type, request, value, index, data, length,
                          timeout_ms, done ? done : &dummy);
}

ACCELDEF accel_status accel_port_usb_bulk_out(const accel_port *p, uint8_t ep,
                                              const uint8_t *data, size_t len,
                                              uint32_t timeout_ms, size_t *done)
{
    size_t dummy = 0;
    if (!p) return ACCEL_E_NULL;
    if (!p->usb_bulk_out) return ACCEL_E_UNSUPPORTED;
    if (!data && len) return ACCEL_E_NULL;
    if (ep & ACCEL_USB_DIR_IN) return ACCEL_E_ARG;
    return p->usb_bulk_out(p->user, ep, data, len, timeout_ms, done ? done : &dummy);
}

ACCELDEF accel_status accel_port_usb_bulk_in(const accel_port *p, uint8_t ep, uint8_t *data,
                                             size_t len, uint32_t timeout_ms, size_t *done)
{
    size_t dummy = 0;
    if (!p) return ACCEL_E_NULL;
    if (!p->usb_bulk_in) return ACCEL_E_UNSUPPORTED;
    if (!data) return ACCEL_E_NULL;
    if (len == 0) return ACCEL_E_ZERO_LENGTH;
    if (!(ep & ACCEL_USB_DIR_IN)) return ACCEL_E_ARG;
    return p->usb_bulk_in(p->user, ep, data, len, timeout_ms, done ? done : &dummy);
}

ACCELDEF accel_status accel_port_reg_read32(const accel_port *p, uint32_t offset, uint32_t *v)
{
    if (!p || !v) return ACCEL_E_NULL;
    if (!p->reg_read32) return ACCEL_E_UNSUPPORTED;
    return p->reg_read32(p->user, offset, v);
}

ACCELDEF accel_status accel_port_reg_write32(const accel_port *p, uint32_t offset, uint32_t v)
{
    if (!p) return ACCEL_E_NULL;
    if (!p->reg_write32) return ACCEL_E_UNSUPPORTED;
    return p->reg_write32(p->user, offset, v);
}

ACCELDEF accel_status accel_port_reg_read64(const accel_port *p, uint32_t offset, uint64_t *v)
{
    if (!p || !v) return ACCEL_E_NULL;
    if (!p->reg_read64) return ACCEL_E_UNSUPPORTED;
    return p->reg_read64(p->user, offset, v);
}

ACCELDEF accel_status accel_port_reg_write64(const accel_port *p, uint32_t offset, uint64_t v)
{
    if (!p) return ACCEL_E_NULL;
    if (!p->reg_write64) return ACCEL_E_UNSUPPORTED;
    return p->reg_write64(p->user, offset, v);
}

ACCELDEF accel_status accel_port_update32(const accel_port *p, uint32_t offset, uint32_t clear,
                                          uint32_t set)
{
    uint32_t v = 0;
    accel_status st = accel_port_reg_read32(p, offset, &v);
    if (st != ACCEL_OK) return st;
    if (!p->reg_write32) return ACCEL_E_UNSUPPORTED;
    return p->reg_write32(p->user, offset, (v & ~clear) | set);
}

ACCELDEF accel_status accel_port_gpio_set(const accel_port *p, unsigned line, unsigned level)
{
    if (!p) return ACCEL_E_NULL;
    if (!p->gpio_set) return ACCEL_E_UNSUPPORTED;
    if (level > 1u) return ACCEL_E_ARG;
    return p->gpio_set(p->user, line, level);
}

ACCELDEF accel_status accel_port_wait_irq(const accel_port *p, unsigned line, uint32_t timeout_ms)
{
    if (!p) return ACCEL_E_NULL;
    if (!p->wait_irq) return ACCEL_E_UNSUPPORTED;
    return p->wait_irq(p->user, line, timeout_ms);
}

ACCELDEF accel_status accel_port_now_ms(const accel_port *p, uint32_t *now)
{
    if (now) *now = 0;
    if (!p || !now) return ACCEL_E_NULL;
    if (!p->now_ms) return ACCEL_E_UNSUPPORTED;
    *now = p->now_ms(p->user);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_port_delay_ms(const accel_port *p, uint32_t ms)
{
    accel_deadline d;
    if (!p) return ACCEL_E_NULL;
    if (p->delay_ms) {
        p->delay_ms(p->user, ms);
        return ACCEL_OK;
    }
    if (!p->now_ms) return ACCEL_E_UNSUPPORTED;
    accel_deadline_start(&d, p->now_ms(p->user), ms);
    while (!accel_deadline_expired(&d, p->now_ms(p->user))) {
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_port_poll32(const accel_port *p, uint32_t offset, uint32_t mask,
                                        uint32_t want, uint32_t timeout_ms, uint32_t poll_ms,
                                        uint32_t *last)
{
    accel_deadline d;
    uint32_t v = 0, now;
    accel_status st;
    if (!p) return ACCEL_E_NULL;
    if (!p->reg_read32) return ACCEL_E_UNSUPPORTED;
    st = accel_port_now_ms(p, &now);
    if (st != ACCEL_OK) return st; /* a poll without a clock could spin forever */
    accel_deadline_start(&d, now, timeout_ms);
    for (;;) {
        st = p->reg_read32(p->user, offset, &v);
        if (last) *last = v;
        if (st != ACCEL_OK) return st;
        if ((v & mask) == want) return ACCEL_OK;
        if (accel_deadline_expired(&d, p->now_ms(p->user))) return ACCEL_E_TIMEOUT;
        if (poll_ms) {
            st = accel_port_delay_ms(p, poll_ms);
            if (st != ACCEL_OK) return st;
        }
    }
}

#if !defined(ACCEL_NO_EDGETPU) || !defined(ACCEL_NO_TFLITE)
/* ---------------------------------------------------------------- @common.fb: FlatBuffers reader */
/* All positions are byte offsets into one buffer; every check is written as "fits in what is
 * left" so no addition can wrap. */
static int accel__fb_fits(size_t len, size_t pos, size_t n)
{
    return pos <= len && n <= len - pos;
}

ACCELDEF accel_status accel_fb_table_at(accel_fb_table *t, const uint8_t *buf, size_t len,
                                          size_t pos)
{
    uint32_t so;
    size_t vt;
    if (!accel__fb_fits(len, pos, 4)) return ACCEL_E_MALFORMED;
    so = accel_load_u32le(buf + pos);
    /* soffset: vtable = pos - (int32)so */
    if (so & 0x80000000UL) {
        uint32_t fwd = (uint32_t)(0u - so);
        /* cppcheck-suppress knownConditionTrueFalse ; fwd is 1..2^31 here, cppcheck thinks 0 */
        if ((uint64_t)fwd > (uint64_t)(len - pos)) return ACCEL_E_MALFORMED;
        vt = pos + (size_t)fwd;
    } else {
        if ((uint64_t)so > (uint64_t)pos) return ACCEL_E_MALFORMED;
        vt = pos - (size_t)so;
    }
    if (!accel__fb_fits(len, vt, 4)) return ACCEL_E_MALFORMED;
    t->buf = buf;
    t->len = len;
    t->pos = pos;
    t->vt = vt;
    t->vtlen = accel_load_u16le(buf + vt);
    t->tlen = accel_load_u16le(buf + vt + 2);
    if (t->vtlen < 4u || (t->vtlen & 1u) || !accel__fb_fits(len, vt, t->vtlen))
        return ACCEL_E_MALFORMED;
    if (t->tlen < 4u || !accel__fb_fits(len, pos, t->tlen)) return ACCEL_E_MALFORMED;
    return ACCEL_OK;
}

/* Root table of a flatbuffer (uoffset at 0). */
ACCELDEF accel_status accel_fb_root(accel_fb_table *t, const uint8_t *buf, size_t len)
{
    uint32_t r;
    if (!buf || len < 8u) return ACCEL_E_MALFORMED;
    r = accel_load_u32le(buf);
    if ((uint64_t)r >= (uint64_t)len) return ACCEL_E_MALFORMED;
    return accel_fb_table_at(t, buf, len, (size_t)r);
}

/* Offset of field i inside the table, 0 when absent; ACCEL_E_MALFORMED when the field's `size`
 * bytes would leave the table. */
ACCELDEF accel_status accel_fb_field(const accel_fb_table *t, unsigned i, unsigned size,
                                            size_t *at)
{
    size_t o = 4u + 2u * (size_t)i;
    uint16_t off;
    *at = 0;
    if (o + 2u > t->vtlen) return ACCEL_OK;
    off = accel_load_u16le(t->buf + t->vt + o);
    if (off == 0) return ACCEL_OK;
    if (off < 4u || (size_t)off + size > t->tlen) return ACCEL_E_MALFORMED;
    *at = t->pos + off;
    return ACCEL_OK;
}

/* Scalar fields, little-endian, with a default. */
ACCELDEF accel_status accel_fb_scalar(const accel_fb_table *t, unsigned i, unsigned size,
                                          uint64_t def, uint64_t *out)
{
    size_t at;
    accel_status st = accel_fb_field(t, i, size, &at);
    if (st != ACCEL_OK) return st;
    if (!at) {
        *out = def;
    } else if (size == 1u) {
        *out = t->buf[at];
    } else if (size == 2u) {
        *out = accel_load_u16le(t->buf + at);
    } else if (size == 4u) {
        *out = accel_load_u32le(t->buf + at);
    } else {
        *out = accel_load_u64le(t->buf + at);
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fb_i32(const accel_fb_table *t, unsigned i, int32_t def,
                                          int32_t *out)
{
    uint64_t v;
    accel_status st = accel_fb_scalar(t, i, 4, (uint32_t)def, &v);
    uint32_t u = (uint32_t)v;
    if (st != ACCEL_OK) return st;
    /* two's complement without implementation-defined conversion */
    *out = (u & 0x80000000UL) ? -(int32_t)(uint32_t)(~u) - 1 : (int32_t)u;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fb_i16(const accel_fb_table *t, unsigned i, int *out)
{
    uint64_t v;
    accel_status st = accel_fb_scalar(t, i, 2, 0, &v);
    uint16_t u = (uint16_t)v;
    if (st != ACCEL_OK) return st;
    *out = (u & 0x8000u) ? -(int)(uint16_t)(~u) - 1 : (int)u;
    return ACCEL_OK;
}

/* Follow a uoffset field; *pos = 0 when absent. */
ACCELDEF accel_status accel_fb_ref(const accel_fb_table *t, unsigned i, size_t *pos)
{
    size_t at;
    uint32_t rel;
    accel_status st = accel_fb_field(t, i, 4, &at);
    *pos = 0;
    if (st != ACCEL_OK || !at) return st;
    rel = accel_load_u32le(t->buf + at);
    if (rel == 0 || (uint64_t)rel >= (uint64_t)(t->len - at)) return ACCEL_E_MALFORMED;
    *pos = at + (size_t)rel;
    return ACCEL_OK;
}

/* Vector field: *pos = first element, *n = count, each element `esize` bytes. */
ACCELDEF accel_status accel_fb_vector(const accel_fb_table *t, unsigned i, size_t esize,
                                          size_t *pos, uint32_t *n)
{
    size_t p;
    uint32_t cnt;
    accel_status st = accel_fb_ref(t, i, &p);
    *pos = 0;
    *n = 0;
    if (st != ACCEL_OK || !p) return st;
    if (!accel__fb_fits(t->len, p, 4)) return ACCEL_E_MALFORMED;
    cnt = accel_load_u32le(t->buf + p);
    if ((uint64_t)cnt * esize > (uint64_t)(t->len - p - 4u)) return ACCEL_E_MALFORMED;
    *pos = p + 4u;
    *n = cnt;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fb_bytes(const accel_fb_table *t, unsigned i,
                                            accel_fb_view *v)
{
    size_t p;
    uint32_t n;
    accel_status st = accel_fb_vector(t, i, 1, &p, &n);
    v->p = NULL;
    v->len = 0;
    if (st != ACCEL_OK || !p) return st;
    v->p = t->buf + p;
    v->len = (size_t)n;
    return ACCEL_OK;
}

/* String: bytes plus the NUL FlatBuffers always stores. */
ACCELDEF accel_status accel_fb_string(const accel_fb_table *t, unsigned i,
                                          accel_fb_view *v)
{
    accel_status st = accel_fb_bytes(t, i, v);
    if (st != ACCEL_OK || !v->p) return st;
    if ((size_t)(v->p - t->buf) + v->len >= t->len || v->p[v->len] != 0) {
        v->p = NULL;
        v->len = 0;
        return ACCEL_E_MALFORMED;
    }
    return ACCEL_OK;
}

/* Element k of a vector of tables (or of strings/byte vectors when as_vec). */
ACCELDEF accel_status accel_fb_elem(const uint8_t *buf, size_t len, size_t vec,
                                           uint32_t k, size_t *target)
{
    size_t at = vec + 4u * (size_t)k;
    uint32_t rel;
    if (!accel__fb_fits(len, at, 4)) return ACCEL_E_MALFORMED;
    rel = accel_load_u32le(buf + at);
    if (rel == 0 || (uint64_t)rel >= (uint64_t)(len - at)) return ACCEL_E_MALFORMED;
    *target = at + (size_t)rel;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_fb_subtable(const accel_fb_table *t, unsigned i,
                                               accel_fb_table *sub, int *present)
{
    size_t p;
    accel_status st = accel_fb_ref(t, i, &p);
    *present = 0;
    if (st != ACCEL_OK || !p) return st;
    *present = 1;
    return accel_fb_table_at(sub, t->buf, t->len, p);
}
#endif /* the FlatBuffers reader */

#ifdef __cplusplus
}
#endif

/* ============================================================================================
 * SECTION: tsp1 (implementation) @tsp1
 * ============================================================================================ */
#ifndef ACCEL_NO_TSP1
#ifdef __cplusplus
extern "C" {
#endif
/* -------------------------------------------------------- @tsp1.wire: frames */
#if defined(__GNUC__) || defined(__clang__)
#define ACCEL__TSP1_NOINLINE __attribute__((noinline)) /* where inlining costs bytes (-Os) */
#else
#define ACCEL__TSP1_NOINLINE
#endif
#ifndef ACCEL_TSP1_CRC
#define ACCEL_TSP1_CRC(p, n) accel_crc32((p), (n))
#endif

/* Byte order of every multi-byte frame field (ACCEL_TSP1_BIG_ENDIAN): the one place it is set. */
static uint16_t accel__tsp1_get16(const uint8_t *p)
{
#if ACCEL_TSP1_BIG_ENDIAN
    return accel_load_u16be(p);
#else
    return accel_load_u16le(p);
#endif
}
static void accel__tsp1_put16(uint8_t *p, uint16_t v)
{
#if ACCEL_TSP1_BIG_ENDIAN
    accel_store_u16be(p, v);
#else
    accel_store_u16le(p, v);
#endif
}
static uint32_t accel__tsp1_get32(const uint8_t *p)
{
    return ACCEL_TSP1_BIG_ENDIAN ? ((uint32_t)accel__tsp1_get16(p) << 16) | accel__tsp1_get16(p + 2)
                                 : accel__tsp1_get16(p) | ((uint32_t)accel__tsp1_get16(p + 2) << 16);
}
static void accel__tsp1_put32(uint8_t *p, uint32_t v)
{
    accel__tsp1_put16(p + (ACCEL_TSP1_BIG_ENDIAN ? 2 : 0), (uint16_t)(v & 0xFFFFu));
    accel__tsp1_put16(p + (ACCEL_TSP1_BIG_ENDIAN ? 0 : 2), (uint16_t)(v >> 16));
}

ACCELDEF accel_status accel_tsp1_encode_raw_frame(uint16_t preamble, uint16_t id, uint16_t tid,
                                                 const void *payload, size_t n, uint8_t *buf,
                                                 size_t cap, size_t *out_len)
{
    if (out_len) *out_len = 0;
    if (!buf || !out_len || (!payload && n)) return ACCEL_E_NULL;
    if (n > 0xFFFFu) return ACCEL_E_TOO_LONG;
    if (cap < ACCEL_TSP1_OVERHEAD || n > cap - ACCEL_TSP1_OVERHEAD) return ACCEL_E_BUFFER_TOO_SMALL;
    accel__tsp1_put16(buf, preamble);
    accel__tsp1_put16(buf + 2, id);
    accel__tsp1_put16(buf + 4, (uint16_t)n);
    accel__tsp1_put16(buf + 6, tid);
    if (n && (const uint8_t *)payload != buf + 8) ACCEL_MEMCPY(buf + 8, payload, n);
    accel__tsp1_put32(buf + 8 + n, ACCEL_TSP1_CRC(buf, 8 + n));
    *out_len = ACCEL_TSP1_OVERHEAD + n;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_check_cmd(uint16_t id, size_t n)
{
    size_t want = 0;
    if (n > 0xFFFFu) return ACCEL_E_TOO_LONG;
    if (id == ACCEL_TSP1_ECHO) return ACCEL_OK;
    if (id == ACCEL_TSP1_SECURE_UPDATE) return n % ACCEL_TSP1_CHUNK_SIZE ? ACCEL_E_ALIGN : ACCEL_OK;
    if (id >= ACCEL_TSP1_NN_INFO && id <= ACCEL_TSP1_NN_FINISH) want = 4;
    else if (id != ACCEL_TSP1_SECURE_UPDATE_CANCEL && id != ACCEL_TSP1_SECURE_UPDATE_FINISH &&
             id != ACCEL_TSP1_REBOOT && id != ACCEL_TSP1_DEEP_SLEEP && id != ACCEL_TSP1_CLEAR_ERROR)
        return ACCEL_E_ARG;
    if (n == want) return ACCEL_OK;
    return n > want ? ACCEL_E_TOO_LONG : ACCEL_E_TRUNCATED;
}

ACCELDEF accel_status accel_tsp1_encode_command(uint16_t id, uint16_t tid, const void *payload, size_t n,
                                               uint8_t *buf, size_t cap, size_t *out_len)
{
    accel_status st = accel_tsp1_check_cmd(id, n);
    if (out_len) *out_len = 0;
    if (st != ACCEL_OK) return st;
    return accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, id, tid, payload, n, buf, cap,
                                   out_len);
}

ACCELDEF accel_status accel_tsp1_encode_command_u32(uint16_t id, uint16_t tid, uint32_t value,
                                                   uint8_t *buf, size_t cap, size_t *out_len)
{
    uint8_t p[4];
    if (id == ACCEL_TSP1_NN_INFO) {
        if (value > 0xFFu) {
            if (out_len) *out_len = 0;
            return ACCEL_E_ARG; /* one byte of slot index, three reserved */
        }
        value = ACCEL_TSP1_BIG_ENDIAN ? value << 24 : value; /* the index is byte 0 */
    }
    accel__tsp1_put32(p, value);
    return accel_tsp1_encode_command(id, tid, p, 4, buf, cap, out_len);
}

ACCELDEF accel_tsp1_kind accel_tsp1_kind_of(uint16_t id)
{
    /* by the high nibble (0x9005 is not a documented id) */
    unsigned lo = id & 0x0FFFu;
    switch (id >> 12) {
    case 0x8: if (lo < 2u) return (accel_tsp1_kind)(ACCEL_TSP1_KIND_DATA + lo); break;
    case 0x9: if (lo < 8u && lo != 5u) return ACCEL_TSP1_KIND_ERROR; break;
    case 0xA: if (lo - 1u < 3u) return ACCEL_TSP1_KIND_ASYNC; break;
    default: break;
    }
    return ACCEL_TSP1_KIND_UNKNOWN;
}

ACCELDEF accel_status accel_tsp1_error_status(uint16_t id)
{
    /* ERR_x = 0x9000 + k maps to ACCEL_E_TSP1_ERR_ARG - k (codes are laid out that way) */
    if (accel_tsp1_kind_of(id) != ACCEL_TSP1_KIND_ERROR) return ACCEL_E_MALFORMED;
    return (accel_status)((int)ACCEL_E_TSP1_ERR_ARG - (int)(id - ACCEL_TSP1_R_ERR_ARG));
}

/* NN_INFO payload bytes -> struct */
ACCEL__TSP1_NOINLINE static accel_status accel__tsp1_nn_info(const uint8_t *p, size_t n, accel_tsp1_nn_info *out)
{
    if (n != 8 || p[0] > 1 || p[7] > 3) return ACCEL_E_MALFORMED;
    out->valid = p[0];
    out->idx = p[1];
    out->n_total = p[2];
    out->n_in = p[3];
    out->n_out = p[4];
    out->buf_in0 = p[5];
    out->buf_out0 = p[6];
    out->state = (accel_tsp1_nn_state)p[7];
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_decode_nn_info(const accel_tsp1_frame *f,
                                               accel_tsp1_nn_info *out)
{
    if (!f || !out || (!f->payload && f->n_bytes)) return ACCEL_E_NULL;
    if (f->id != ACCEL_TSP1_R_NN_INFO) return ACCEL_E_ARG;
    return accel__tsp1_nn_info(f->payload, f->n_bytes, out);
}

/* -------------------------------------------------------- @tsp1.decoder: streaming decoder */
ACCELDEF accel_status accel_tsp1_decoder_init(accel_tsp1_decoder *d, void *buf, size_t cap,
                                              uint16_t preamble)
{
    if (!d || !buf) return ACCEL_E_NULL;
    if (cap < ACCEL_TSP1_OVERHEAD) return ACCEL_E_BUFFER_TOO_SMALL;
    ACCEL_MEMSET(d, 0, sizeof *d);
    d->buf = (uint8_t *)buf;
    d->cap = cap;
    d->preamble = preamble;
    return ACCEL_OK;
}

static void accel__tsp1_dec_drop(accel_tsp1_decoder *d, size_t k)
{
    size_t i;
    for (i = k; i < d->len; i++) d->buf[i - k] = d->buf[i]; /* overlapping: forward copy */
    d->len -= k;
}

/* The candidate at buf[0] failed (or held bytes start with garbage): drop up to the next byte
 * that could start a preamble. */
static void accel__tsp1_dec_resync(accel_tsp1_decoder *d, unsigned reason)
{
    uint8_t pre[2];
    size_t i = 1;
    accel__tsp1_put16(pre, d->preamble);
    while (i < d->len && !(d->buf[i] == pre[0] && (i + 1 >= d->len || d->buf[i + 1] == pre[1])))
        i++;
    d->dropped[reason] += (uint32_t)i;
    accel__tsp1_dec_drop(d, i);
}

ACCELDEF accel_status accel_tsp1_decoder_feed(accel_tsp1_decoder *d, const void *data, size_t n,
                                              size_t *used, accel_tsp1_frame *f)
{
    const uint8_t *in = (const uint8_t *)data;
    uint8_t pre[2];
    size_t pos = 0, need, take;
    if (used) *used = 0;
    if (!d || !used || !f || (!data && n) || !d->buf) return ACCEL_E_NULL;
#if ACCEL_TSP1_IN_PLACE
    /* Bytes held from an earlier feed are a candidate whose preamble and length were checked
     * (the loop below returns ACCEL_E_EMPTY only then; accel_tsp1_decoder_idle, which drops
     * bytes itself, feeds nothing): while it cannot complete, just take the bytes. */
    if (n && !d->emitted && d->len >= ACCEL_TSP1_HDR_SIZE) {
        need = (size_t)accel__tsp1_get16(d->buf + 4) + ACCEL_TSP1_OVERHEAD;
        ACCEL_ASSERT(need <= d->cap && d->len < need);
        if (n < need - d->len) {
            ACCEL_MEMCPY(d->buf + d->len, in, n);
            d->len += n;
            *used = n;
            return ACCEL_E_EMPTY;
        }
    }
#endif
    accel__tsp1_put16(pre, d->preamble);
    if (d->emitted) { /* the frame returned last time */
        accel__tsp1_dec_drop(d, d->emitted);
        d->emitted = 0;
    }
    for (;;) {
#if ACCEL_TSP1_IN_PLACE
        /* Nothing held and a whole frame in the input: checked where it lies, no copy (the
         * payload then points into data). Anything else, and a frame that fails here, takes
         * the copying path below, which counts what it drops. */
        if (!d->len && n - pos >= ACCEL_TSP1_OVERHEAD && in[pos] == pre[0] && in[pos + 1] == pre[1]) {
            need = accel__tsp1_get16(in + pos + 4);
            if (need <= d->cap - ACCEL_TSP1_OVERHEAD && need + ACCEL_TSP1_OVERHEAD <= n - pos &&
                ACCEL_TSP1_CRC(in + pos, need + ACCEL_TSP1_HDR_SIZE) ==
                    accel__tsp1_get32(in + pos + ACCEL_TSP1_HDR_SIZE + need)) {
                f->id = accel__tsp1_get16(in + pos + 2);
                f->n_bytes = (uint16_t)need;
                f->tid = accel__tsp1_get16(in + pos + 6);
                f->payload = in + pos + ACCEL_TSP1_HDR_SIZE;
                d->frames++;
                *used = pos + need + ACCEL_TSP1_OVERHEAD;
                return ACCEL_OK;
            }
        }
#endif
        /* a candidate starts with the preamble (a lone first byte may still become one) */
        if (d->len && (d->buf[0] != pre[0] || (d->len > 1 && d->buf[1] != pre[1]))) {
            accel__tsp1_dec_resync(d, ACCEL_TSP1_DROP_GARBAGE);
            continue;
        }
        need = ACCEL_TSP1_HDR_SIZE;
        if (d->len >= ACCEL_TSP1_HDR_SIZE) {
            need = accel__tsp1_get16(d->buf + 4);
            if (need > d->cap - ACCEL_TSP1_OVERHEAD) {
                accel__tsp1_dec_resync(d, ACCEL_TSP1_DROP_LENGTH);
                continue;
            }
            need += ACCEL_TSP1_OVERHEAD;
        }
        if (d->len < need) { /* never past the header, nor past this frame's end */
            take = need - d->len;
            if (take > n - pos) take = n - pos;
            if (!take) break;
            ACCEL_MEMCPY(d->buf + d->len, in + pos, take);
            pos += take;
            d->len += take;
            continue;
        }
        if (ACCEL_TSP1_CRC(d->buf, need - 4) != accel__tsp1_get32(d->buf + need - 4)) {
            accel__tsp1_dec_resync(d, ACCEL_TSP1_DROP_CRC);
            continue;
        }
        f->id = accel__tsp1_get16(d->buf + 2);
        f->n_bytes = (uint16_t)(need - ACCEL_TSP1_OVERHEAD);
        f->tid = accel__tsp1_get16(d->buf + 6);
        f->payload = d->buf + ACCEL_TSP1_HDR_SIZE;
        d->emitted = need;
        d->frames++;
        *used = pos;
        return ACCEL_OK;
    }
    *used = n;
    return ACCEL_E_EMPTY;
}

ACCELDEF accel_status accel_tsp1_decoder_idle(accel_tsp1_decoder *d, accel_tsp1_frame *f)
{
    size_t used;
    for (;;) {
        /* frames complete among the held bytes first; then the candidate that cannot finish */
        accel_status st = accel_tsp1_decoder_feed(d, NULL, 0, &used, f);
        if (st != ACCEL_E_EMPTY || !d->len) return st;
        accel__tsp1_dec_resync(d, ACCEL_TSP1_DROP_TRUNCATED);
    }
}

ACCELDEF void accel_tsp1_decoder_reset(accel_tsp1_decoder *d)
{
    if (!d) return;
    if (d->len > d->emitted) d->dropped[ACCEL_TSP1_DROP_TRUNCATED] += (uint32_t)(d->len - d->emitted);
    d->len = 0;
    d->emitted = 0;
}

/* -------------------------------------------------------- @tsp1.bus: registers and FIFO buffers */
#ifndef ACCEL_TSP1_XFER_CUSTOM
/* THE ASSUMED TRANSACTION FORMAT lives in this function only: one access, a write when tx is
 * set (n bytes from tx), else a read (n bytes into rx). */
ACCELDEF accel_status accel_tsp1_xfer(const accel_tsp1_bus *b, uint8_t op, uint8_t addr,
                                      const uint8_t *tx, uint8_t *rx, size_t n)
{
#if ACCEL_TSP1_I2C
    uint8_t h[2 + ACCEL_TSP1_SPI_DUMMY + ACCEL_TSP1_I2C_MAX_WRITE];
#else
    uint8_t h[2 + ACCEL_TSP1_SPI_DUMMY];
#endif
    accel_status st;
    ACCEL_MEMSET(h, 0, 2 + ACCEL_TSP1_SPI_DUMMY);
    h[0] = op;
    h[1] = addr;
    if (b->i2c) {
#if ACCEL_TSP1_I2C
        /* invented: header and data in one write (a copy, as the port takes one buffer), or
           the header then a read; no dummy */
        if (!tx) return accel_port_i2c_write_read(b->port, b->addr, h, 2, rx, n);
        if (n > ACCEL_TSP1_I2C_MAX_WRITE) return ACCEL_E_UNSUPPORTED;
        ACCEL_MEMCPY(h + 2, tx, n);
        return accel_port_i2c_write_read(b->port, b->addr, h, n + 2, NULL, 0);
#else
        return ACCEL_E_UNSUPPORTED; /* the chip speaks SPI only: I2C needs ACCEL_TSP1_I2C */
#endif
    }
    st = accel_port_spi_transfer(b->port, b->addr, h, NULL, tx ? 2u : 2u + ACCEL_TSP1_SPI_DUMMY,
                                 ACCEL_SPI_KEEP_CS);
    if (st != ACCEL_OK) return st;
    return accel_port_spi_transfer(b->port, b->addr, tx, rx, n, 0);
}
#endif

ACCELDEF accel_status accel_tsp1_reg_read(const accel_tsp1_bus *b, uint8_t reg, uint32_t *v)
{
    uint8_t d[4];
    accel_status st;
    if (!b || !v) return ACCEL_E_NULL;
    *v = 0;
    st = accel_tsp1_xfer(b, ACCEL_TSP1_SPI_OP_REG_READ, reg, NULL, d, 4);
    if (st == ACCEL_OK) *v = accel_load_u32le(d);
    return st;
}

ACCELDEF accel_status accel_tsp1_reg_write(const accel_tsp1_bus *b, uint8_t reg, uint32_t v)
{
    uint8_t d[4];
    if (!b) return ACCEL_E_NULL;
    accel_store_u32le(d, v);
    return accel_tsp1_xfer(b, ACCEL_TSP1_SPI_OP_REG_WRITE, reg, d, NULL, 4);
}

/* buffer access: a write when tx is set */
static accel_status accel__tsp1_buf(const accel_tsp1_bus *b, uint8_t idx, const void *tx,
                                    void *rx, size_t n)
{
    if (!b || (!tx && !rx)) return ACCEL_E_NULL;
    if (!n) return ACCEL_E_ZERO_LENGTH;
    return accel_tsp1_xfer(b, tx ? ACCEL_TSP1_SPI_OP_BUF_WRITE : ACCEL_TSP1_SPI_OP_BUF_READ, idx,
                           (const uint8_t *)tx, (uint8_t *)rx, n);
}

ACCELDEF accel_status accel_tsp1_buf_write(const accel_tsp1_bus *b, uint8_t idx, const void *d,
                                           size_t n)
{
    return accel__tsp1_buf(b, idx, d, NULL, n);
}

ACCELDEF accel_status accel_tsp1_buf_read(const accel_tsp1_bus *b, uint8_t idx, void *d, size_t n)
{
    return accel__tsp1_buf(b, idx, NULL, d, n);
}

ACCELDEF accel_status accel_tsp1_buf_level(const accel_tsp1_bus *b, uint8_t idx, uint16_t *fill,
                                           uint16_t *space)
{
    uint32_t v = 0;
    accel_status st = accel_tsp1_reg_read(b, (uint8_t)ACCEL_TSP1_REG_BUF_STATUS(idx), &v);
    if (fill) *fill = (uint16_t)(v & 0xFFFFu);
    if (space) *space = (uint16_t)(v >> 16);
    return st;
}

ACCELDEF accel_status accel_tsp1_irq_config(const accel_tsp1_bus *b, uint32_t mask,
                                            uint16_t cmd_thr, uint16_t rsp_thr)
{
    accel_status st = accel_tsp1_reg_write(b, (uint8_t)ACCEL_TSP1_REG_BUF_CTRL(ACCEL_TSP1_BUF_CMD),
                                           cmd_thr);
    if (st == ACCEL_OK)
        st = accel_tsp1_reg_write(b, (uint8_t)ACCEL_TSP1_REG_BUF_CTRL(ACCEL_TSP1_BUF_RSP), rsp_thr);
    if (st == ACCEL_OK) st = accel_tsp1_reg_write(b, ACCEL_TSP1_REG_IRQ_MASK, mask);
    return st;
}

ACCELDEF accel_status accel_tsp1_wake_pulse(const accel_tsp1_bus *b)
{
    accel_status st;
    if (!b) return ACCEL_E_NULL;
    st = accel_port_gpio_set(b->port, b->wake_line, 1);
    if (st == ACCEL_OK) st = accel_port_gpio_set(b->port, b->wake_line, 0);
    return st;
}

/* -------------------------------------------------------- @tsp1.driver: session */
#ifndef ACCEL_TSP1_READ_CHUNK
#define ACCEL_TSP1_READ_CHUNK 64u
#endif
#define ACCEL__TSP1_SURE 1u     /* pending flag: a REBOOT/DEEP_SLEEP sent while settled, so the
                                   next ASYNC_READY is its own (s->settled, 0 or 1, as is) */
#define ACCEL__TSP1_INTERNAL 2u /* pending flag: the driver's own CLEAR_ERROR (no outcome) */
#define ACCEL__TSP1_SYNC 4u     /* pending flag: the session's synchronising ECHO */
#define ACCEL__TSP1_BIG 12u     /* an ECHO payload this long can carry a whole frame */
#define ACCEL__TSP1_ALL ((size_t)-1)

static uint32_t accel__tsp1_now(const accel_tsp1 *s)
{
    uint32_t t;
    (void)accel_port_now_ms(s->bus.port, &t); /* open() made sure the port has a clock */
    return t;
}

ACCEL__TSP1_NOINLINE static accel_tsp1_pending *accel__tsp1_at(const accel_tsp1 *s, size_t i)
{
    return (accel_tsp1_pending *)accel_ring_at(&s->pend, i);
}

/* The pending entry with this TID, or NULL; *at = its index. */
ACCEL__TSP1_NOINLINE static accel_tsp1_pending *accel__tsp1_find(const accel_tsp1 *s, uint16_t tid,
                                                                size_t *at)
{
    accel_tsp1_pending *p;
    size_t i = 0;
    while ((p = accel__tsp1_at(s, i)) != NULL && p->tid != tid) i++;
    *at = i;
    return p;
}

/* The first TID from t that is not pending (nor TID_NONE). Taken by the caller only once its
   command is written: a refused submit takes none, and a TID is never in use twice. */
static uint16_t accel__tsp1_tid(const accel_tsp1 *s, uint16_t t)
{
    size_t i;
    while (t == ACCEL_TSP1_TID_NONE || accel__tsp1_find(s, t, &i)) t++;
    return t;
}

/* 16-bit check of an ECHO payload: its answer must carry the same bytes. */
static uint16_t accel__tsp1_check(const void *p, size_t n)
{
    return (uint16_t)(ACCEL_TSP1_CRC((const uint8_t *)p, n) & 0xFFFFu);
}

/* REBOOT and DEEP_SLEEP clear the device's buffers: only ASYNC_READY can confirm them. */
ACCEL__TSP1_NOINLINE static int accel__tsp1_is_reset(uint16_t id)
{
    return id == ACCEL_TSP1_REBOOT || id == ACCEL_TSP1_DEEP_SLEEP;
}

/* The REBOOT or DEEP_SLEEP awaiting ASYNC_READY: always the newest entry (submit holds the rest). */
static accel_tsp1_pending *accel__tsp1_resetting(const accel_tsp1 *s)
{
    accel_tsp1_pending *p = accel__tsp1_at(s, accel_ring_count(&s->pend) - 1u);
    return p && accel__tsp1_is_reset(p->id) ? p : NULL;
}

/* Pop the oldest pending command with its one outcome. */
static void accel__tsp1_finish(accel_tsp1 *s, accel_status st, const accel_tsp1_frame *f)
{
    accel_tsp1_pending p;
    accel_tsp1_outcome o;
    accel_status popped = accel_ring_pop(&s->pend, &p);
    ACCEL_ASSERT(popped == ACCEL_OK); /* every caller found a command at the head first */
    (void)popped;
    /* a DEEP_SLEEP that did not run leaves the device awake; one of unknown fate may have put
       it to sleep, so the session keeps asking for accel_tsp1_wake */
    if (p.id == ACCEL_TSP1_DEEP_SLEEP && st != ACCEL_E_TSP1_UNKNOWN_OUTCOME) s->asleep = 0;
    if (p.tid == s->w_tid && !s->w_done) {
        s->w_done = 1;
        s->w_st = st;
        s->w_len = 0;
        if (f && s->w_buf) {
            s->w_len = f->n_bytes < s->w_cap ? f->n_bytes : s->w_cap;
            ACCEL_MEMCPY(s->w_buf, f->payload, s->w_len); /* both valid, even for 0 bytes */
        }
    }
    if (p.flags & ACCEL__TSP1_INTERNAL) return;
    s->outcomes++;
    o.tid = p.tid;
    o.cmd = p.id;
    o.status = st;
    o.resp = f;
    if (s->on_outcome) s->on_outcome(s->user, &o);
}

/* End the oldest n entries with st; n = ACCEL__TSP1_ALL: every entry before the first pending
 * CLEAR_ERROR (it ends the device's error state, so what follows it may still run). */
ACCEL__TSP1_NOINLINE static void accel__tsp1_end(accel_tsp1 *s, size_t n, accel_status st,
                                                const accel_tsp1_frame *f)
{
    accel_tsp1_pending *p;
    unsigned to_clear = n == ACCEL__TSP1_ALL;
    while (n-- && (p = accel__tsp1_at(s, 0)) != NULL &&
           !(to_clear && p->id == ACCEL_TSP1_CLEAR_ERROR))
        accel__tsp1_finish(s, st, f);
}

/* The device may be discarding everything until CLEAR_ERROR (poll sends it with auto_clear). */
ACCEL__TSP1_NOINLINE static void accel__tsp1_device_error(accel_tsp1 *s)
{
    if (!s->dev_error) s->clear_ms = accel__tsp1_now(s);
    s->dev_error = 1;
}

static void accel__tsp1_on_async(accel_tsp1 *s, const accel_tsp1_frame *f)
{
    unsigned slot = (uint16_t)(f->id - ACCEL_TSP1_R_ASYNC_READY);
    uint16_t d = (uint16_t)(f->tid - s->last_async);
    if (slot == 0) {
        /* boot or wake: the device cleared its buffers and error state and halted its networks.
           A pending REBOOT (or DEEP_SLEEP after our wake pulse) ran; nothing older can be
           confirmed any more. Other pending commands may have been sent after the boot. */
        accel_tsp1_pending *p = accel__tsp1_resetting(s);
        /* a DEEP_SLEEP says ASYNC_READY only after the wake pulse (asleep 1 before it, 2
           after): before it, this is an earlier boot's (a REBOOT that timed out), and what is
           pending stays so. (asleep 1 with p set means p is that DEEP_SLEEP: submit holds
           everything after it) */
        if (!p || s->asleep != 1) {
            /* unsure: this may be an earlier boot's. A REBOOT then stays pending (what was sent
               after that boot may still answer) and ends at its deadline; a DEEP_SLEEP after
               the wake pulse ends now (it has no deadline) */
            if (p && ((p->flags & ACCEL__TSP1_SURE) || p->id == ACCEL_TSP1_DEEP_SLEEP)) {
                s->settled = (uint8_t)(p->flags & ACCEL__TSP1_SURE);
                accel__tsp1_end(s, accel_ring_count(&s->pend) - 1u, ACCEL_E_TSP1_UNKNOWN_OUTCOME,
                                NULL);
                accel__tsp1_finish(s, s->settled ? ACCEL_OK : ACCEL_E_TSP1_UNKNOWN_OUTCOME, NULL);
            }
            s->ready = 1;
            s->asleep = 0;
            s->dev_error = 0;
            s->running_mask = 0;
        }
    } else if (slot < 3 && s->have_async) {
        if (d == 0 || d > 0x7FFFu) s->async_nonmono++;
        else s->async_gaps += d - 1u;
    }
    if (slot > 3) slot = 3; /* undocumented ids, answers to nothing pending */
    if (slot < 3) {
        s->have_async = 1;
        s->last_async = f->tid;
    }
    if (s->on_async) {
        s->on_async(s->user, f);
    } else {
        if (s->aq_n[slot] < 0xFFFFu) s->aq_n[slot]++;
        s->aq_tid[slot] = f->tid;
        s->aq_id[slot] = f->id;
    }
}

ACCEL__TSP1_NOINLINE static void accel__tsp1_on_frame(accel_tsp1 *s, const accel_tsp1_frame *f)
{
    accel_tsp1_kind k = accel_tsp1_kind_of(f->id);
    size_t i = 0;
    accel_tsp1_pending *p = NULL;
    if (s->lost) { /* it may lie inside a long ECHO's payload (see poll) */
        s->stale++;
        return;
    }
    if (k == ACCEL_TSP1_KIND_UNKNOWN || k > ACCEL_TSP1_KIND_ERROR) { /* async, undocumented */
        accel__tsp1_on_async(s, f);
        return;
    }
    /* ERR_CHECKSUM and ERR_FRAMING carry the TID of a damaged header: they name nothing */
    if (f->id < ACCEL_TSP1_R_ERR_CHECKSUM) p = accel__tsp1_find(s, f->tid, &i);
    /* DATA is ours only with the bytes sent (an ECHO's, a marker's); until this session's
       synchronising ECHO answers, every answer is an earlier session's */
    if (p && f->id == ACCEL_TSP1_R_DATA) {
        if (accel__tsp1_check(f->payload, f->n_bytes) != p->check) p = NULL;
        else if (p->flags & ACCEL__TSP1_SYNC) s->synced = 1;
    }
    if (!s->synced) {
        s->stale++;
        return;
    }
    if (!p) {
        if (k != ACCEL_TSP1_KIND_ERROR) {
            s->stray++; /* an answer to nothing pending (e.g. after its deadline): surfaced */
            accel__tsp1_on_async(s, f);
            return;
        }
        /* an error from some point of the device's queue: what was sent before the first
           pending CLEAR_ERROR can never be confirmed now; what follows it may still run */
        accel__tsp1_end(s, ACCEL__TSP1_ALL, ACCEL_E_TSP1_UNKNOWN_OUTCOME, f);
    } else {
        accel_status st = accel_tsp1_error_status(f->id);
        /* NN_INFO answers NN_INFO, the rest DATA (from the marker); a REBOOT or DEEP_SLEEP
           answers nothing: only ASYNC_READY confirms it */
        if (k != ACCEL_TSP1_KIND_ERROR)
            st = !accel__tsp1_is_reset(p->id) &&
                         f->id == ACCEL_TSP1_R_DATA + (p->id == ACCEL_TSP1_NN_INFO)
                     ? ACCEL_OK
                     : ACCEL_E_TSP1_UNEXPECTED;
        /* answers come in command order: older commands without theirs never get them */
        accel__tsp1_end(s, i, ACCEL_E_TSP1_UNKNOWN_OUTCOME, NULL);
        accel__tsp1_finish(s, st, f);
        /* with no REBOOT/DEEP_SLEEP pending, this command went out after all of them: any of
           them that ran, rebooted the device before it, and its ASYNC_READY came first (the
           device places it before answering anything after a boot) or is lost */
        if (!accel__tsp1_resetting(s)) s->settled = 1;
        /* an answer to the last long ECHO or to anything sent after it: its own can no longer
           come (answers come in command order) */
        if ((uint16_t)(f->tid - s->big_tid) < 0x8000u) s->big = 0;
        if (k != ACCEL_TSP1_KIND_ERROR) return;
        /* in its error state the device discards what follows, until a CLEAR_ERROR */
        accel__tsp1_end(s, ACCEL__TSP1_ALL, ACCEL_E_TSP1_DISCARDED, NULL);
    }
    accel__tsp1_device_error(s);
}

ACCELDEF accel_status accel_tsp1_driver_mem_size(size_t depth, size_t cmd_payload,
                                                 size_t rsp_payload, size_t *bytes)
{
    if (!bytes) return ACCEL_E_NULL;
    *bytes = 0;
    if (depth < 2 || rsp_payload < 4u || (depth | cmd_payload | rsp_payload) > 0xFFFFu)
        return ACCEL_E_ARG;
    /* pending table (aligned up from the block's start), tx (frame + marker), rx */
    *bytes = ACCEL_TSP1_DRIVER_MEM(depth, cmd_payload, rsp_payload);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_init(accel_tsp1 *s, const accel_tsp1_config *c)
{
    accel_status st;
    uint8_t *pm, *rm, *tm;
    size_t pl, rl, tl, need;
    if (!s || !c || !c->bus.port) return ACCEL_E_NULL;
    ACCEL_MEMSET(s, 0, sizeof *s);
    if (c->mem) { /* one block: pending table, tx, rx (the size function checks the numbers) */
        st = accel_tsp1_driver_mem_size(c->depth, c->cmd_payload, c->rsp_payload, &need);
        if (st != ACCEL_OK) return st;
        if (c->mem_len < need) return ACCEL_E_BUFFER_TOO_SMALL;
        pm = (uint8_t *)c->mem + ((0u - (uintptr_t)c->mem) & 3u);
        pl = c->depth * sizeof(accel_tsp1_pending);
        tm = pm + pl;
        tl = 2u * ACCEL_TSP1_OVERHEAD + c->cmd_payload;
        rm = tm + tl;
        rl = ACCEL_TSP1_OVERHEAD + (size_t)c->rsp_payload;
    } else {
#ifndef ACCEL_NO_DEPRECATED
        pm = (uint8_t *)c->pending_mem, rm = (uint8_t *)c->rx_mem, tm = (uint8_t *)c->tx_mem;
        pl = c->pending_len, rl = c->rx_len, tl = c->tx_len;
        if (!tm) return ACCEL_E_NULL;
        /* rx: at least the synchronising ECHO's answer (4 bytes) */
        if (pl < 2 * sizeof(accel_tsp1_pending) || tl < ACCEL_TSP1_OVERHEAD ||
            (rm && rl < ACCEL_TSP1_OVERHEAD + 4u))
            return ACCEL_E_BUFFER_TOO_SMALL;
#else
        return ACCEL_E_NULL;
#endif
    }
    if (!c->bus.port->now_ms) return ACCEL_E_UNSUPPORTED; /* deadlines need a clock */
    st = accel_ring_init(&s->pend, pm, pl, sizeof(accel_tsp1_pending));
    if (st == ACCEL_OK) st = accel_tsp1_decoder_init(&s->dec, rm, rl, ACCEL_TSP1_RSP_PREAMBLE);
    if (st != ACCEL_OK) return st;
    s->bus = c->bus;
    s->tx = tm;
    s->tx_cap = tl;
    /* the caller's nonce picks the first TID and the synchronising ECHO's bytes (not the clock:
       a recorded session replays byte for byte) */
    s->nonce = c->nonce;
    s->next_tid = (uint16_t)(s->nonce ^ (s->nonce >> 16));
    s->timeout_ms = c->timeout_ms ? c->timeout_ms : 1000u;
    s->auto_clear = c->auto_clear;
    s->on_outcome = c->on_outcome;
    s->on_async = c->on_async;
    s->user = c->user;
    s->w_tid = ACCEL_TSP1_TID_NONE;
    s->w_done = 1;
    return ACCEL_OK;
}

/* Encode (a command without payload on the stack, so s->tx is left alone) and write one command
 * with, when it answers nothing, its marker: an ECHO right behind it in the same transaction,
 * which the device answers only if the command arrived whole and ran without error. */
/* flags: ACCEL__TSP1_SYNC or 0; a CLEAR_ERROR is the driver's own (INTERNAL) */
static accel_status accel__tsp1_submit(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                       uint8_t flags)
{
    uint8_t m[2 * ACCEL_TSP1_OVERHEAD + 4], nb[4];
    uint8_t *buf = n ? s->tx : m;
    size_t cap = n ? s->tx_cap : sizeof m, len, ml = 0, i = flags & ACCEL__TSP1_SYNC ? 4u : 0u;
    int rs = accel__tsp1_is_reset(id);
    accel_tsp1_pending p;
    accel_status st;
    uint16_t space, fill;
    if (id == ACCEL_TSP1_CLEAR_ERROR) flags = (uint8_t)(flags | ACCEL__TSP1_INTERNAL);
    if (s->asleep) return ACCEL_E_TSP1_ASLEEP;
    if (accel__tsp1_resetting(s)) return ACCEL_E_BUSY; /* held until ASYNC_READY */
    if (!flags && s->dev_error) return ACCEL_E_TSP1_ERROR_STATE;
    /* the last slot is kept for the driver's own CLEAR_ERROR */
    if (accel_ring_count(&s->pend) + (flags ? 0u : 1u) >= accel_ring_capacity(&s->pend))
        return ACCEL_E_FULL;
    /* an ECHO answer the decoder could not hold would be dropped and its bytes rescanned: its
       frame must fit the receive buffer too (else ACCEL_E_BUFFER_TOO_SMALL) */
    if (id == ACCEL_TSP1_ECHO && cap > s->dec.cap) cap = s->dec.cap;
    p.tid = accel__tsp1_tid(s, s->next_tid);
    st = accel_tsp1_encode_command(id, p.tid, payload, n, buf, cap, &len);
    /* the marker: an empty ECHO; the synchronising one carries the session nonce (a new one
       for each attempt) */
    accel__tsp1_put32(nb, ++s->nonce);
    if ((ACCEL_TSP1_MARKER || i) && id != ACCEL_TSP1_ECHO && id != ACCEL_TSP1_NN_INFO && !rs &&
        st == ACCEL_OK)
        st = accel_tsp1_encode_raw_frame(ACCEL_TSP1_CMD_PREAMBLE, ACCEL_TSP1_ECHO, p.tid, nb, i,
                                         buf + len, cap - len, &ml);
    if (st == ACCEL_OK) st = accel_tsp1_buf_level(&s->bus, ACCEL_TSP1_BUF_CMD, &fill, &space);
    if (st == ACCEL_OK && space < len + ml) st = ACCEL_E_BUSY;
    /* a session starts once the device holds no earlier session's command and no answer is
       left to read (so nothing before its marker can carry the marker's TID and bytes, even
       with the same nonce); poll reads them meanwhile (stale) */
    if (i && st == ACCEL_OK) {
        if (fill) return ACCEL_E_BUSY;
        st = accel_tsp1_buf_level(&s->bus, ACCEL_TSP1_BUF_RSP, &fill, NULL);
        if (st == ACCEL_OK && fill) st = ACCEL_E_BUSY;
    }
    if (st != ACCEL_OK) return st;
    p.id = id;
    p.flags = (uint8_t)(flags | s->settled); /* SURE: read for REBOOT/DEEP_SLEEP only */
    /* the DATA that answers it: an ECHO's payload, the marker's nonce, or nothing */
    p.check = accel__tsp1_check(id == ACCEL_TSP1_ECHO ? buf + ACCEL_TSP1_HDR_SIZE : nb,
                                 id == ACCEL_TSP1_ECHO ? n : i);
    /* one transaction; ACCEL_E_UNSUPPORTED: nothing reached the bus */
    p.sent_ms = accel__tsp1_now(s);
    st = accel_tsp1_buf_write(&s->bus, ACCEL_TSP1_BUF_CMD, buf, len + ml);
    if (st == ACCEL_E_UNSUPPORTED) return st;
    if (st != ACCEL_OK) p.sent_ms -= s->timeout_ms; /* part may have arrived: due at once */
    s->next_tid = (uint16_t)(p.tid + 1u);
    (void)accel_ring_push(&s->pend, &p); /* room checked above */
    if (rs) {
        s->settled = 0;
        s->ready = 0;
        s->asleep = (uint8_t)(id == ACCEL_TSP1_DEEP_SLEEP);
    }
    if (flags) s->dev_error = 0; /* a CLEAR_ERROR went out */
    if (id == ACCEL_TSP1_ECHO && n >= ACCEL__TSP1_BIG) s->big = 1, s->big_tid = p.tid;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_submit(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                        uint16_t *tid)
{
    accel_tsp1_pending *q = NULL;
    accel_status st;
    size_t i = 0;
    uint8_t sync = 0;
    if (!s) return ACCEL_E_NULL;
    /* not synchronised, and no synchronising CLEAR_ERROR on its way: send one first (commands
       may follow it before it is answered), or make this CLEAR_ERROR that one */
    while (!s->synced && (q = accel__tsp1_at(s, i)) != NULL && !(q->flags & ACCEL__TSP1_SYNC)) i++;
    if (!s->synced && !q) {
        sync = ACCEL__TSP1_SYNC;
        if (id != ACCEL_TSP1_CLEAR_ERROR) {
            st = accel__tsp1_submit(s, ACCEL_TSP1_CLEAR_ERROR, NULL, 0, sync);
            if (st != ACCEL_OK) return st;
            sync = 0;
        }
    }
    st = accel__tsp1_submit(s, id, payload, n, sync);
    if (st == ACCEL_OK && tid) *tid = (uint16_t)(s->next_tid - 1u); /* the TID it took */
    return st;
}

ACCELDEF accel_status accel_tsp1_clear_error(accel_tsp1 *s)
{
    return accel_tsp1_submit(s, ACCEL_TSP1_CLEAR_ERROR, NULL, 0, NULL);
}

static uint32_t accel__tsp1_drops(const accel_tsp1_decoder *d)
{
    return d->dropped[0] + d->dropped[1] + d->dropped[2] + d->dropped[3];
}

ACCELDEF accel_status accel_tsp1_poll(accel_tsp1 *s)
{
    uint8_t chunk[ACCEL_TSP1_READ_CHUNK];
    accel_tsp1_pending *p;
    unsigned rounds;
    uint32_t now;
    accel_status st = ACCEL_OK;
    if (!s) return ACCEL_E_NULL;
    /* read first: an answer already waiting decides its command however late this poll is */
    for (rounds = 0; rounds < 64u; rounds++) {
        uint16_t fill;
        size_t got = 0, off = 0;
        uint32_t d0 = s->drops;
        st = accel_tsp1_buf_level(&s->bus, ACCEL_TSP1_BUF_RSP, &fill, NULL);
        if (st == ACCEL_OK && fill) {
            got = fill < sizeof chunk ? fill : sizeof chunk;
            st = accel_tsp1_buf_read(&s->bus, ACCEL_TSP1_BUF_RSP, chunk, got);
        }
        if (st != ACCEL_OK) break;
        do {
            accel_tsp1_frame f;
            size_t used = 0;
            /* an empty buffer: the device has nothing more, so a held candidate never ends */
            st = got ? accel_tsp1_decoder_feed(&s->dec, chunk + off, got - off, &used, &f)
                     : accel_tsp1_decoder_idle(&s->dec, &f);
            off += used;
            /* a dropped byte while an ECHO that can carry whole frames may be answered: what
               follows may lie inside its payload (other answers are too short to hold one) */
            if (accel__tsp1_drops(&s->dec) != s->drops && s->big) s->lost = 1;
            s->drops = accel__tsp1_drops(&s->dec);
            if (st == ACCEL_OK) accel__tsp1_on_frame(s, &f);
        } while (st == ACCEL_OK);
        st = ACCEL_OK;
        if (!got) {
            /* read empty with nothing dropped on the way: the next byte starts a frame */
            if (s->drops == d0) s->lost = 0;
            break;
        }
    }
    /* deadlines, oldest first (a DEEP_SLEEP waits for accel_tsp1_wake); a lost error response
       would leave the device discarding everything, so CLEAR_ERROR follows */
    now = accel__tsp1_now(s);
    while ((p = accel__tsp1_at(s, 0)) != NULL && p->id != ACCEL_TSP1_DEEP_SLEEP &&
           (uint32_t)(now - p->sent_ms) >= s->timeout_ms) {
        accel__tsp1_finish(s, ACCEL_E_TSP1_UNKNOWN_OUTCOME, NULL);
        accel__tsp1_device_error(s);
    }
    if (st != ACCEL_OK) return st;
    /* CLEAR_ERROR (not behind a REBOOT or DEEP_SLEEP: they end the error state themselves); a
       refused one is tried again on every poll, for as long as the error state lasts */
    if (s->dev_error && s->auto_clear && !accel__tsp1_resetting(s) &&
        accel_tsp1_clear_error(s) != ACCEL_OK &&
        (uint32_t)(accel__tsp1_now(s) - s->clear_ms) >= s->timeout_ms)
        return ACCEL_E_TSP1_ERROR_STATE;
    return ACCEL_OK;
}

/* Blocking core: submit id (0: none) and poll until *flag is set (the command's outcome, or the
 * device ready), or timeout_ms passes. A full command buffer or pending table drains, a REBOOT
 * completes and (with auto_clear) an error state clears while we poll; between polls we sleep on
 * INTB (or 1 ms). */
static accel_status accel__tsp1_wait(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                     uint32_t timeout_ms, const uint8_t *flag)
{
    accel_status st;
    accel_deadline d;
    uint16_t tid;
    accel_deadline_start(&d, accel__tsp1_now(s), timeout_ms);
    for (;;) {
        if (id) {
            st = accel_tsp1_submit(s, id, payload, n, &tid);
            if (st == ACCEL_OK) {
                id = 0;
                s->w_tid = tid;
                s->w_done = 0;
            } else if (st != ACCEL_E_BUSY && st != ACCEL_E_FULL &&
                       !(st == ACCEL_E_TSP1_ERROR_STATE && s->auto_clear)) {
                break;
            }
        }
        st = accel_tsp1_poll(s);
        if (st != ACCEL_OK || (!id && *flag)) break;
        if (accel_deadline_expired(&d, accel__tsp1_now(s))) {
            st = ACCEL_E_TIMEOUT; /* a command sent still gets its own outcome later */
            break;
        }
        /* whatever INTB says, the next step is to poll; without the line, wait a millisecond
           (the port has a clock, so a port without delay busy-waits on it) */
        if (accel_port_wait_irq(s->bus.port, s->bus.intb_line, 1) == ACCEL_E_UNSUPPORTED)
            (void)accel_port_delay_ms(s->bus.port, 1);
    }
    s->w_buf = NULL;
    s->w_tid = ACCEL_TSP1_TID_NONE;
    return st;
}

ACCELDEF accel_status accel_tsp1_call(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                      void *resp, size_t resp_cap, size_t *resp_len,
                                      uint32_t timeout_ms)
{
    accel_status st;
    if (resp_len) *resp_len = 0;
    if (!s) return ACCEL_E_NULL;
    if (!id) return ACCEL_E_ARG; /* not a command (0 means "wait for ready" inside) */
    s->w_buf = (uint8_t *)resp; /* where finish copies the answer (wait resets it) */
    s->w_cap = resp_cap;
    st = accel__tsp1_wait(s, id, payload, n, timeout_ms, &s->w_done);
    if (st != ACCEL_OK) return st;
    if (resp_len) *resp_len = s->w_len;
    return s->w_st;
}

/* A command without a response payload, blocking. */
static accel_status accel__tsp1_cmd(accel_tsp1 *s, uint16_t id, const void *payload, size_t n,
                                    uint32_t timeout_ms)
{
    return accel_tsp1_call(s, id, payload, n, NULL, 0, NULL, timeout_ms);
}

ACCELDEF accel_status accel_tsp1_wait_ready(accel_tsp1 *s, uint32_t timeout_ms)
{
    if (!s) return ACCEL_E_NULL;
    return accel__tsp1_wait(s, 0, NULL, 0, timeout_ms, &s->ready);
}

ACCELDEF accel_status accel_tsp1_sync(accel_tsp1 *s, uint32_t timeout_ms)
{
    if (!s) return ACCEL_E_NULL;
    if (s->synced) return ACCEL_OK;
    return accel__tsp1_wait(s, ACCEL_TSP1_CLEAR_ERROR, NULL, 0, timeout_ms, &s->synced);
}

ACCELDEF accel_status accel_tsp1_reboot(accel_tsp1 *s, uint32_t timeout_ms)
{
    accel_status st;
    uint32_t v = 0xFFFFFFFFu;
    unsigned n = 0, k = 0;
    if (!s) return ACCEL_E_NULL;
    /* REBOOT is discarded in the error state, which the device may be in unknown to us (a lost
       answer, an earlier program): clear first. Whether the clear's marker came back does not
       matter: the REBOOT goes either way. */
    st = accel__tsp1_wait(s, ACCEL_TSP1_CLEAR_ERROR, NULL, 0, timeout_ms, &s->w_done);
    if (st == ACCEL_OK)
        st = accel__tsp1_wait(s, ACCEL_TSP1_REBOOT, NULL, 0, timeout_ms, &s->ready);
    /* no CRC on a register: a damaged read must not decide; three reads in a row must agree,
       and all ones (a bus nobody drives) is no version */
    while (st == ACCEL_OK && k < 3) {
        uint32_t w = v;
        st = n++ < 6 ? accel_tsp1_reg_read(&s->bus, ACCEL_TSP1_REG_FW_VERSION, &v) : ACCEL_E_IO;
        k = v == w && v != 0xFFFFFFFFu ? k + 1u : 1u;
    }
    if (st != ACCEL_OK) return st;
    s->rom = (uint8_t)(v == 0);
    return v ? ACCEL_OK : ACCEL_E_TSP1_ROM;
}

ACCELDEF accel_status accel_tsp1_sleep(accel_tsp1 *s, uint32_t timeout_ms)
{
    accel_status st;
    uint16_t fill = 1;
    if (!s) return ACCEL_E_NULL;
    if (accel_ring_count(&s->pend)) return ACCEL_E_BUSY; /* let queued work finish first */
    st = accel_tsp1_submit(s, ACCEL_TSP1_DEEP_SLEEP, NULL, 0, NULL);
    /* a wake pulse before the device took the command would go unseen: wait (about
       timeout_ms, in 1 ms steps) until it left the command buffer */
    while (st == ACCEL_OK && fill && timeout_ms--) {
        (void)accel_port_delay_ms(s->bus.port, 1); /* as in accel__tsp1_wait */
        st = accel_tsp1_buf_level(&s->bus, ACCEL_TSP1_BUF_CMD, &fill, NULL);
    }
    return st;
}

ACCELDEF accel_status accel_tsp1_wake(accel_tsp1 *s, uint32_t timeout_ms)
{
    accel_status st;
    if (!s) return ACCEL_E_NULL;
    st = accel_tsp1_wake_pulse(&s->bus);
    if (st != ACCEL_OK) return st;
    if (s->asleep) s->asleep = 2; /* an ASYNC_READY now proves the DEEP_SLEEP ran */
    st = accel_tsp1_wait_ready(s, timeout_ms);
    if (st != ACCEL_OK && s->asleep) {
        /* the DEEP_SLEEP may never have run, or the ASYNC_READY was lost: the device is taken
           to be awake (a command that gets no answer will show otherwise) */
        accel__tsp1_end(s, accel_ring_count(&s->pend), ACCEL_E_TSP1_UNKNOWN_OUTCOME, NULL);
        s->asleep = 0;
    }
    return st;
}

ACCELDEF accel_status accel_tsp1_nn_query(accel_tsp1 *s, uint8_t idx, accel_tsp1_nn_info *info,
                                         uint32_t timeout_ms)
{
    uint8_t p[9]; /* 9: a longer answer is malformed, not cut to 8 */
    size_t len;
    accel_status st;
    if (!s || !info) return ACCEL_E_NULL;
    p[0] = idx;
    p[1] = p[2] = p[3] = 0;
    st = accel_tsp1_call(s, ACCEL_TSP1_NN_INFO, p, 4, p, sizeof p, &len, timeout_ms);
    if (st != ACCEL_OK) return st;
    return accel__tsp1_nn_info(p, len, info);
}

ACCELDEF accel_status accel_tsp1_nn_scan(accel_tsp1 *s, uint8_t *count, uint32_t timeout_ms)
{
    accel_tsp1_nn_info in;
    uint8_t i;
    uint32_t known = 0, run = 0;
    if (!s) return ACCEL_E_NULL;
    for (i = 0; i < ACCEL_TSP1_MAX_NETS; i++) {
        accel_status st = accel_tsp1_nn_query(s, i, &in, timeout_ms);
        if (st == ACCEL_E_TSP1_ERR_ARG) break; /* past the last slot */
        if (st != ACCEL_OK) return st;
        if (!in.valid) break;
        known |= (uint32_t)1 << i;
        if (in.state == ACCEL_TSP1_NN_RUNNING) run |= (uint32_t)1 << i;
    }
    s->known_mask = known;
    s->running_mask = run;
    s->scanned = 1;
    if (count) *count = i;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_nn_control(accel_tsp1 *s, uint16_t id, uint32_t mask,
                                            uint32_t timeout_ms)
{
    uint8_t p[4];
    accel_status st;
    if (!s) return ACCEL_E_NULL;
    if (id < ACCEL_TSP1_NN_START || id > ACCEL_TSP1_NN_FINISH) return ACCEL_E_ARG;
    if (s->scanned && (mask & ~s->known_mask)) return ACCEL_E_TSP1_MASK;
    accel__tsp1_put32(p, mask);
    st = accel__tsp1_cmd(s, id, p, 4, timeout_ms);
    if (st == ACCEL_OK) {
        if (id == ACCEL_TSP1_NN_START) s->running_mask |= mask;
        else s->running_mask &= ~mask;
    }
    return st;
}

ACCELDEF accel_status accel_tsp1_async_take(accel_tsp1 *s, uint16_t *id, uint16_t *tid,
                                            uint16_t *coalesced)
{
    unsigned i, best = 4;
    if (!s || !id || !tid || !coalesced) return ACCEL_E_NULL;
    for (i = 0; i < 4; i++) /* oldest first: async TIDs increase */
        if (s->aq_n[i] && (best == 4 || (uint16_t)(s->aq_tid[i] - s->aq_tid[best]) > 0x7FFFu))
            best = i;
    if (best == 4) return ACCEL_E_EMPTY;
    *id = s->aq_id[best];
    *tid = s->aq_tid[best];
    *coalesced = s->aq_n[best];
    s->aq_n[best] = 0;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_update_run(accel_tsp1 *s, accel_tsp1_update *u,
                                            uint32_t timeout_ms)
{
    accel_status st;
    uint32_t k, prev = 0, lim; /* prev: start of the previous command of this run (0: none) */
    uint16_t fill, space;
    if (!s || !u || !u->read) return ACCEL_E_NULL;
    if (u->total % ACCEL_TSP1_CHUNK_SIZE || u->position % ACCEL_TSP1_CHUNK_SIZE ||
        u->position > u->total)
        return ACCEL_E_ARG;
#if ACCEL_TSP1_I2C
    /* the invented I2C format carries ACCEL_TSP1_I2C_MAX_WRITE bytes a write: refuse before
       anything is sent when not even the smallest chunk command fits */
    if (s->bus.i2c && (u->chunks ? u->chunks : 1u) * ACCEL_TSP1_CHUNK_SIZE +
                          2u * ACCEL_TSP1_OVERHEAD > ACCEL_TSP1_I2C_MAX_WRITE)
        return ACCEL_E_UNSUPPORTED;
#endif
    if (s->running_mask) return ACCEL_E_BUSY; /* stop the networks first (else ERR_BUSY) */
    st = accel_tsp1_buf_level(&s->bus, ACCEL_TSP1_BUF_CMD, &fill, &space);
    if (st != ACCEL_OK) return st;
    /* a command and its marker must fit the tx buffer and, sized automatically, the device's
       command buffer in its entirety */
    lim = (uint32_t)fill + space;
    if (lim > s->tx_cap) lim = (uint32_t)s->tx_cap;
#if ACCEL_TSP1_I2C
    if (s->bus.i2c && lim > ACCEL_TSP1_I2C_MAX_WRITE) lim = ACCEL_TSP1_I2C_MAX_WRITE;
#endif
    k = (uint32_t)u->chunks * ACCEL_TSP1_CHUNK_SIZE;
    if (!k) /* whole chunks that fit (a loop: no division), at most N_BYTES' 0xFFFF */
        while (k + ACCEL_TSP1_CHUNK_SIZE + 2u * ACCEL_TSP1_OVERHEAD <= lim &&
               k + ACCEL_TSP1_CHUNK_SIZE <= 0xFFFFu)
            k += ACCEL_TSP1_CHUNK_SIZE;
    if (!k || k + 2u * ACCEL_TSP1_OVERHEAD > s->tx_cap) return ACCEL_E_BUFFER_TOO_SMALL;
    if (!u->position) /* a fresh start keeps nothing of an earlier attempt */
        st = accel__tsp1_cmd(s, ACCEL_TSP1_SECURE_UPDATE_CANCEL, NULL, 0, timeout_ms);
    while (st == ACCEL_OK && u->position < u->total) {
        size_t n = (size_t)(u->total - u->position < k ? u->total - u->position : k); /* <= 0xFFFF */
        st = u->read(u->user, u->position, s->tx + ACCEL_TSP1_HDR_SIZE, n);
        if (st == ACCEL_OK)
            st = accel__tsp1_cmd(s, ACCEL_TSP1_SECURE_UPDATE, s->tx + ACCEL_TSP1_HDR_SIZE, n,
                                 timeout_ms);
        if (st != ACCEL_OK) break;
        prev = u->position;
        u->position += (uint32_t)n;
        if (u->progress) u->progress(u->user, u->position, u->total);
    }
    if (st == ACCEL_OK) st = accel__tsp1_cmd(s, ACCEL_TSP1_SECURE_UPDATE_FINISH, NULL, 0, timeout_ms);
    if (st == ACCEL_OK) return u->no_reboot ? ACCEL_OK : accel_tsp1_reboot(s, timeout_ms);
    if (!u->no_cancel) {
        /* the update's own status is what the caller needs; a CANCEL that fails changes
           nothing for the next attempt, which starts at 0 with a CANCEL of its own */
        u->position = 0;
        if (s->dev_error) (void)accel_tsp1_clear_error(s);
        (void)accel__tsp1_cmd(s, ACCEL_TSP1_SECURE_UPDATE_CANCEL, NULL, 0, timeout_ms);
    } else if (st == ACCEL_E_TSP1_UNKNOWN_OUTCOME || st == ACCEL_E_TIMEOUT ||
               st == ACCEL_E_TSP1_ERR_CRYPT) {
        u->position = 0; /* the device's progress unknown, or the image refused: start over */
    } else if (st == ACCEL_E_TSP1_ERR_MEM) {
        u->position = prev; /* blamed on the previous command */
    }
    return st;
}

#ifndef ACCEL_TSP1_NO_MODEL
/* -------------------------------------------------------- @tsp1.model: device model */
#define ACCEL__TSP1_MODEL_RESIDUE 0x2144DF1Cu /* CRC-32 of data followed by its own CRC (LE) */

/* cppcheck-suppress unknownMacro ; the deprecated names' two-argument form of this name */
ACCELDEF accel_status accel_tsp1_model_mem_size(uint16_t cmd_cap, uint16_t rsp_cap, size_t *bytes)
{
    size_t room;
    if (!bytes) return ACCEL_E_NULL;
    *bytes = 0;
    if (cmd_cap < ACCEL_TSP1_OVERHEAD || rsp_cap < 16u) return ACCEL_E_ARG;
    room = (size_t)-1 - ACCEL_TSP1_MODEL_SLACK; /* rsp_cap + 3 x cmd_cap must fit in it */
    if ((size_t)rsp_cap > room || (size_t)cmd_cap > (room - rsp_cap) / 3u) return ACCEL_E_OVERFLOW;
    *bytes = 3u * (size_t)cmd_cap + ACCEL_TSP1_MODEL_SLACK + rsp_cap;
    return ACCEL_OK;
}

static void accel__tsp1_model_log(accel_tsp1_model *m, uint8_t what, uint16_t tid, uint16_t id,
                             uint16_t resp)
{
    accel_tsp1_model_event e;
    if (!m->on_log) return;
    e.what = what;
    e.tid = tid;
    e.id = id;
    e.resp = resp;
    m->on_log(m->user, &e);
}

/* Log what a reset clears: queued entries, and responses the host had not (fully) read. The
 * head response may be partly read: rsp_left bytes of it remain. */
static void accel__tsp1_model_wipe(accel_tsp1_model *m)
{
    uint8_t h[8];
    size_t at = 0;
    while (accel_fifo_peek(&m->cmdq, at, h, 6) == ACCEL_OK) {
        if (h[0] == 0 && h[1] == 0) { /* an error entry: 00 00 id tid */
            accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_WIPED, accel__tsp1_get16(h + 4), 0, 0);
            at += 6;
        } else {
            (void)accel_fifo_peek(&m->cmdq, at, h, 8); /* whole frames only: it is there */
            accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_WIPED, accel__tsp1_get16(h + 6),
                             accel__tsp1_get16(h + 2), 0);
            at += ACCEL_TSP1_OVERHEAD + accel__tsp1_get16(h + 4);
        }
    }
    if (m->rsp_left) accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_RSP_WIPED, m->rsp_tid, m->rsp_id, 0);
    at = m->rsp_left;
    while (accel_fifo_peek(&m->rspq, at, h, 8) == ACCEL_OK) {
        accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_RSP_WIPED, accel__tsp1_get16(h + 6),
                         accel__tsp1_get16(h + 2), 0);
        at += ACCEL_TSP1_OVERHEAD + accel__tsp1_get16(h + 4);
    }
}

static void accel__tsp1_model_reset(accel_tsp1_model *m, uint32_t boot_ms)
{
    accel__tsp1_model_wipe(m);
    accel_fifo_clear(&m->cmdq);
    accel_fifo_clear(&m->rspq);
    ACCEL_MEMSET(m->state, 0, sizeof m->state);
    m->rsp_left = 0;
    m->stage_len = 0;
    m->xpos = 0;
    m->irq_mask = (uint32_t)1 << ACCEL_TSP1_BUF_RSP; /* as documented: only the response buffer */
    m->thr[0] = 0;
    m->thr[1] = 1;
    m->error_state = 0;
    m->apend = 0;
    m->power = ACCEL_TSP1_MODEL_BOOTING;
    m->timer = boot_ms ? boot_ms : 1u;
}

ACCELDEF accel_status accel_tsp1_model_init(accel_tsp1_model *m, void *mem, size_t mem_len,
                                            uint16_t cmd_cap, uint16_t rsp_cap, uint8_t n_nets)
{
    uint8_t *b = (uint8_t *)mem;
    size_t need;
    accel_status st;
    if (!m || !mem) return ACCEL_E_NULL;
    if (cmd_cap < ACCEL_TSP1_OVERHEAD || rsp_cap < 16u || n_nets > ACCEL_TSP1_MAX_NETS)
        return ACCEL_E_ARG;
    st = accel_tsp1_model_mem_size(cmd_cap, rsp_cap, &need);
    if (st != ACCEL_OK) return st;
    if (mem_len < need) return ACCEL_E_BUFFER_TOO_SMALL;
    ACCEL_MEMSET(m, 0, sizeof *m);
    /* both sizes are non-zero, so the fifo inits cannot fail */
    (void)accel_fifo_init(&m->cmdq, b, (size_t)cmd_cap + ACCEL_TSP1_MODEL_SLACK);
    b += (size_t)cmd_cap + ACCEL_TSP1_MODEL_SLACK;
    (void)accel_fifo_init(&m->rspq, b, rsp_cap);
    m->stage = b + rsp_cap;
    m->work = m->stage + cmd_cap;
    m->cmd_cap = cmd_cap;
    m->rsp_cap = rsp_cap;
    m->n_nets = n_nets;
    m->exec_per_ms = 2;
    m->boot_ms = 5;
    m->nvm_ms = 2;
    m->fw_valid = 1;
    m->fw_version = 1;
    accel__tsp1_model_reset(m, m->boot_ms);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tsp1_model_raise(accel_tsp1_model *m, uint16_t id)
{
    unsigned i;
    if (!m) return ACCEL_E_NULL;
    if (id < ACCEL_TSP1_R_ASYNC_READY || id > ACCEL_TSP1_R_ASYNC_ERR_NPU) return ACCEL_E_ARG;
    i = id - ACCEL_TSP1_R_ASYNC_READY;
    if (m->apend & (1u << i)) m->async_coalesced++;
    m->apend = (uint8_t)(m->apend | (1u << i));
    m->atid[i] = m->async_next++;
    m->async_raised++;
    return ACCEL_OK;
}

/* Push one response frame if it fits (never a partial one). */
static int accel__tsp1_model_respond(accel_tsp1_model *m, uint16_t id, uint16_t tid, const uint8_t *p,
                                size_t n)
{
    uint8_t f[ACCEL_TSP1_OVERHEAD + 8];
    uint8_t *b = n <= 8 ? f : m->work; /* ECHO: built around its payload, which is at work + 8 */
    size_t len;
    if (accel_fifo_space(&m->rspq) < ACCEL_TSP1_OVERHEAD + n) return 0;
    /* both buffers hold the frame and the queue has room: neither call can fail */
    (void)accel_tsp1_encode_raw_frame(ACCEL_TSP1_RSP_PREAMBLE, id,
                                  tid, p, n, b, n <= 8 ? sizeof f : (size_t)m->cmd_cap, &len);
    (void)accel_fifo_write(&m->rspq, b, len);
    return 1;
}

static void accel__tsp1_model_emit_async(accel_tsp1_model *m)
{
    while (m->apend & 7u) { /* bits 0..2: one per async type; no other bit is ever set */
        unsigned i, best = 0;
        uint16_t id;
        /* the oldest pending type (TIDs wrap): start from the lowest set bit, which exists */
        while (best < 2u && !(m->apend & (1u << best))) best++;
        for (i = best + 1u; i < 3u; i++)
            if ((m->apend & (1u << i)) && (uint16_t)(m->atid[i] - m->atid[best]) > 0x7FFFu) best = i;
        id = (uint16_t)(ACCEL_TSP1_R_ASYNC_READY + best);
        if (!accel__tsp1_model_respond(m, id, m->atid[best], NULL, 0)) return;
        m->apend = (uint8_t)(m->apend & ~(1u << best));
        m->async_emitted++;
        accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_ASYNC, m->atid[best], id, 0);
    }
}

/* An error entry in the command queue: 00 00 id tid (a frame always starts with a preamble). */
static void accel__tsp1_model_mark(accel_tsp1_model *m, uint16_t err, uint16_t tid)
{
    uint8_t e[6];
    e[0] = e[1] = 0;
    accel__tsp1_put16(e + 2, err);
    accel__tsp1_put16(e + 4, tid);
    if (accel_fifo_write(&m->cmdq, e, 6) != ACCEL_OK) m->lost_entries++;
}

/* A whole write transaction to the command buffer arrived: split it into queue entries. */
static void accel__tsp1_model_receive(accel_tsp1_model *m, const uint8_t *b, size_t n)
{
    uint8_t pre[2];
    size_t pos = 0;
    accel__tsp1_put16(pre, ACCEL_TSP1_CMD_PREAMBLE);
    while (pos < n) {
        size_t nb, flen;
        uint16_t tid;
        if (n - pos < 2 || b[pos] != pre[0] || b[pos + 1] != pre[1]) {
            while (pos < n && !(b[pos] == pre[0] && pos + 1 < n && b[pos + 1] == pre[1])) pos++;
            accel__tsp1_model_mark(m, ACCEL_TSP1_R_ERR_FRAMING, ACCEL_TSP1_TID_NONE);
            continue;
        }
        if (n - pos < ACCEL_TSP1_HDR_SIZE) {
            accel__tsp1_model_mark(m, ACCEL_TSP1_R_ERR_FRAMING, ACCEL_TSP1_TID_NONE);
            return;
        }
        nb = accel__tsp1_get16(b + pos + 4);
        tid = accel__tsp1_get16(b + pos + 6);
        flen = ACCEL_TSP1_OVERHEAD + nb;
        if (flen > n - pos) { /* partially received: discarded with an error */
            accel__tsp1_model_mark(m, ACCEL_TSP1_R_ERR_FRAMING, tid);
            return;
        }
        if (ACCEL_TSP1_CRC(b + pos, flen - 4) != accel__tsp1_get32(b + pos + flen - 4)) {
            accel__tsp1_model_mark(m, ACCEL_TSP1_R_ERR_CHECKSUM, tid);
            pos += 2; /* resynchronise on the next preamble */
            continue;
        }
        if (accel_fifo_count(&m->cmdq) + flen > m->cmd_cap)
            accel__tsp1_model_mark(m, ACCEL_TSP1_R_ERR_FRAMING, tid); /* must fit in its entirety */
        else
            (void)accel_fifo_write(&m->cmdq, b + pos, flen); /* fits: checked against cmd_cap */
        pos += flen;
    }
}

/* Execute the oldest queue entry. Returns 0 when it cannot complete yet. */
static int accel__tsp1_model_step(accel_tsp1_model *m)
{
    uint8_t h[8], r[8];
    uint16_t id, tid, rid = 0;
    size_t nb = 0, rn = 0, i, elen;
    uint8_t *p = m->work + ACCEL_TSP1_HDR_SIZE;
    uint8_t nets = m->rom ? 0u : m->n_nets; /* the ROM bootloader runs no networks */
    uint32_t mask = 0, valid = nets >= 32 ? (uint32_t)0xFFFFFFFFUL : (((uint32_t)1 << nets) - 1u);
    if (accel_fifo_peek(&m->cmdq, 0, h, 6) != ACCEL_OK) return 0;
    id = accel__tsp1_get16(h + 2);
    if (h[0] == 0 && h[1] == 0) { /* error entry */
        tid = accel__tsp1_get16(h + 4);
        rid = id;
        id = 0;
        elen = 6;
    } else { /* a whole frame is queued: both peeks succeed */
        (void)accel_fifo_peek(&m->cmdq, 0, h, 8);
        nb = accel__tsp1_get16(h + 4);
        tid = accel__tsp1_get16(h + 6);
        (void)accel_fifo_peek(&m->cmdq, ACCEL_TSP1_HDR_SIZE, p, nb);
        elen = ACCEL_TSP1_OVERHEAD + nb;
    }
    /* a rejected piece is not a command: its error is produced in the error state too */
    if (m->error_state && id && id != ACCEL_TSP1_CLEAR_ERROR) {
        (void)accel_fifo_discard(&m->cmdq, elen); /* elen bytes are there (peeked) */
        m->discarded++;
        accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_DISCARDED, tid, id, 0);
        return 1;
    }
    /* room for any answer first: a command completes only when its response fits */
    if (accel_fifo_space(&m->rspq) < (id == ACCEL_TSP1_ECHO ? ACCEL_TSP1_OVERHEAD + nb : 16u) &&
        !(id == ACCEL_TSP1_ECHO && ACCEL_TSP1_OVERHEAD + nb > m->rsp_cap &&
          accel_fifo_space(&m->rspq) >= 16u))
        return 0;
    if (nb == 4) mask = accel__tsp1_get32(p);
    switch (id) {
    case 0: break;
    case ACCEL_TSP1_ECHO:
        if (ACCEL_TSP1_OVERHEAD + nb > m->rsp_cap) rid = ACCEL_TSP1_R_ERR_LEN;
        else rid = ACCEL_TSP1_R_DATA, rn = nb;
        break;
    case ACCEL_TSP1_SECURE_UPDATE:
        if (nb % ACCEL_TSP1_CHUNK_SIZE) { rid = ACCEL_TSP1_R_ERR_LEN; break; }
        for (i = 0; i < nets; i++)
            if (m->state[i] == ACCEL_TSP1_NN_RUNNING) rid = ACCEL_TSP1_R_ERR_BUSY;
        if (rid) break;
        if (m->nvm_busy) return 0; /* the previous NVM write is still going */
        if (m->mem_err) { rid = ACCEL_TSP1_R_ERR_MEM; break; } /* the previous write failed */
        for (i = 1; i <= nb / ACCEL_TSP1_CHUNK_SIZE; i++)
            if (m->upd_pos / ACCEL_TSP1_CHUNK_SIZE + i == m->arg_fail_chunk) {
                rid = ACCEL_TSP1_R_ERR_ARG; /* refused whole */
                m->arg_fail_chunk = 0;
            }
        if (rid || !nb) break;
        for (i = 1; i <= nb / ACCEL_TSP1_CHUNK_SIZE; i++)
            if (m->upd_pos / ACCEL_TSP1_CHUNK_SIZE + i == m->mem_fail_chunk) {
                m->mem_err = 1; /* reported with the next command */
                m->mem_fail_chunk = 0;
            }
        m->prev_pos = m->upd_pos;
        m->prev_crc = m->upd_crc;
        m->upd_crc = accel_crc32_update(m->upd_crc, p, nb);
        m->upd_pos += (uint32_t)nb;
        m->upd_active = 1;
        m->upd_done = 0;
        m->fw_valid = 0; /* starting an update erases the image */
        m->nvm_busy = m->nvm_ms;
        break;
    case ACCEL_TSP1_SECURE_UPDATE_CANCEL:
        if (m->upd_active || m->upd_done) m->fw_valid = 0; /* boots into ROM */
        m->upd_active = m->upd_done = m->mem_err = 0;
        m->upd_pos = m->upd_crc = 0;
        break;
    case ACCEL_TSP1_SECURE_UPDATE_FINISH:
        if (m->nvm_busy) return 0;
        if (m->mem_err) rid = ACCEL_TSP1_R_ERR_MEM;
        else if (!m->upd_active || m->crypt_fail || m->upd_crc != ACCEL__TSP1_MODEL_RESIDUE)
            rid = ACCEL_TSP1_R_ERR_CRYPT; /* refused as a whole: the update is over */
        else m->upd_done = 1;
        if (rid != ACCEL_TSP1_R_ERR_MEM) m->upd_active = 0, m->upd_pos = m->upd_crc = 0;
        break;
    case ACCEL_TSP1_REBOOT:
    case ACCEL_TSP1_DEEP_SLEEP:
        break;
    case ACCEL_TSP1_NN_INFO:
        if (nb != 4) rid = ACCEL_TSP1_R_ERR_LEN;
        else if (p[0] >= ACCEL_TSP1_MAX_NETS) rid = ACCEL_TSP1_R_ERR_ARG;
        else {
            uint8_t v = p[0] < nets;
            r[0] = v;
            r[1] = p[0];
            r[2] = nets;
            r[3] = v;
            r[4] = v;
            r[5] = v ? (uint8_t)(4u + 2u * p[0]) : 0u;
            r[6] = v ? (uint8_t)(5u + 2u * p[0]) : 0u;
            r[7] = v ? m->state[p[0]] : 0u;
            rid = ACCEL_TSP1_R_NN_INFO;
            rn = 8;
            p = r;
        }
        break;
    case ACCEL_TSP1_NN_START: case ACCEL_TSP1_NN_STOP:
    case ACCEL_TSP1_NN_PAUSE: case ACCEL_TSP1_NN_FINISH:
        if (nb != 4) { rid = ACCEL_TSP1_R_ERR_LEN; break; }
        if (mask & ~valid) { rid = ACCEL_TSP1_R_ERR_ARG; break; }
        for (i = 0; i < nets; i++) {
            uint8_t *st = &m->state[i];
            if (!(mask & ((uint32_t)1 << i))) continue;
            if (id == ACCEL_TSP1_NN_START) *st = ACCEL_TSP1_NN_RUNNING;
            else if (id == ACCEL_TSP1_NN_STOP) *st = ACCEL_TSP1_NN_STOPPED;
            else if (*st == ACCEL_TSP1_NN_RUNNING)
                *st = id == ACCEL_TSP1_NN_PAUSE ? ACCEL_TSP1_NN_PAUSED : ACCEL_TSP1_NN_FINISHED;
        }
        break;
    case ACCEL_TSP1_CLEAR_ERROR: m->error_state = 0; break;
    default: rid = ACCEL_TSP1_R_ERR_ARG; break;
    }
    if (rid) {
        if (!accel__tsp1_model_respond(m, rid, tid, rn ? p : NULL, rn)) return 0;
        if (accel_tsp1_kind_of(rid) == ACCEL_TSP1_KIND_ERROR) m->error_state = 1, m->errors++;
    }
    if (rid == ACCEL_TSP1_R_ERR_MEM) { /* the failed command's chunks are forgotten */
        m->upd_pos = m->prev_pos;
        m->upd_crc = m->prev_crc;
        m->mem_err = 0;
    }
    (void)accel_fifo_discard(&m->cmdq, elen); /* elen bytes are there (peeked) */
    m->executed++;
    accel__tsp1_model_log(m, id ? ACCEL_TSP1_MODEL_RAN : ACCEL_TSP1_MODEL_REJECTED, tid, id, rid);
    if (id == ACCEL_TSP1_REBOOT) {
        if (m->upd_done) m->fw_version++, m->fw_valid = 1, m->upd_done = 0;
        m->rom = (uint8_t)!m->fw_valid;
        accel__tsp1_model_reset(m, m->boot_ms);
    } else if (id == ACCEL_TSP1_DEEP_SLEEP) {
        ACCEL_MEMSET(m->state, 0, sizeof m->state);
        m->power = ACCEL_TSP1_MODEL_ASLEEP;
    }
    return 1;
}

ACCELDEF void accel_tsp1_model_advance(accel_tsp1_model *m, uint32_t ms)
{
    if (!m) return;
    while (ms--) {
        unsigned k;
        if (m->power == ACCEL_TSP1_MODEL_BOOTING && --m->timer == 0) {
            m->power = ACCEL_TSP1_MODEL_READY;
            m->async_next = 0; /* async TIDs count from zero after every boot and wake */
            (void)accel_tsp1_model_raise(m, ACCEL_TSP1_R_ASYNC_READY); /* a valid id */
        }
        if (m->power != ACCEL_TSP1_MODEL_READY) continue;
        if (m->nvm_busy) m->nvm_busy--;
        accel__tsp1_model_emit_async(m);
        for (k = 0; k < m->exec_per_ms && m->power == ACCEL_TSP1_MODEL_READY; k++)
            if (!accel__tsp1_model_step(m)) break;
        accel__tsp1_model_emit_async(m);
    }
}

static uint32_t accel__tsp1_model_status(const accel_tsp1_model *m, unsigned i)
{
    const accel_fifo *q = i ? &m->rspq : &m->cmdq;
    size_t cap = i ? m->rsp_cap : m->cmd_cap, fill = accel_fifo_count(q);
    return (uint32_t)fill | ((uint32_t)(fill < cap ? cap - fill : 0u) << 16);
}

static uint32_t accel__tsp1_model_irq(const accel_tsp1_model *m)
{
    uint32_t st = 0;
    if (m->power != ACCEL_TSP1_MODEL_READY) return 0;
    if (accel_fifo_count(&m->rspq) >= (m->thr[1] ? m->thr[1] : 1u)) st |= 2u;
    if (accel_fifo_count(&m->cmdq) <= m->thr[0]) st |= 1u;
    return st;
}

static uint32_t accel__tsp1_model_reg(const accel_tsp1_model *m, uint8_t r)
{
    if (r == ACCEL_TSP1_REG_FW_VERSION) return m->rom ? 0u : m->fw_version;
    if (r == ACCEL_TSP1_REG_IRQ_STATUS) return accel__tsp1_model_irq(m);
    if (r == ACCEL_TSP1_REG_IRQ_MASK) return m->irq_mask;
    if (r == ACCEL_TSP1_REG_BUF_STATUS(0)) return accel__tsp1_model_status(m, 0);
    if (r == ACCEL_TSP1_REG_BUF_STATUS(1)) return accel__tsp1_model_status(m, 1);
    if (r == ACCEL_TSP1_REG_BUF_CTRL(0)) return m->thr[0];
    if (r == ACCEL_TSP1_REG_BUF_CTRL(1)) return m->thr[1];
    return 0;
}

/* One byte read from the response queue; the head frame is tracked so that a reset can log
 * which responses it cleared. */
static uint8_t accel__tsp1_model_rsp_byte(accel_tsp1_model *m)
{
    uint8_t h[8], out = 0;
    size_t got;
    if (!m->rsp_left && accel_fifo_peek(&m->rspq, 0, h, 8) == ACCEL_OK) {
        m->rsp_left = ACCEL_TSP1_OVERHEAD + accel__tsp1_get16(h + 4);
        m->rsp_id = accel__tsp1_get16(h + 2);
        m->rsp_tid = accel__tsp1_get16(h + 6);
    }
    if (accel_fifo_read(&m->rspq, &out, 1, &got) != ACCEL_OK) return 0; /* past the fill level */
    if (m->rsp_left) m->rsp_left--;
    return out;
}

/* One byte of a bus transaction (same bytes for SPI and I2C; I2C skips the dummy). */
static uint8_t accel__tsp1_model_byte(accel_tsp1_model *m, uint8_t in)
{
    size_t at = m->xpos++, data0 = 2u;
    uint8_t out = 0;
    int live = m->power == ACCEL_TSP1_MODEL_READY;
    if (at == 0) m->xop = in;
    else if (at == 1) m->xaddr = in;
    if (m->xop == ACCEL_TSP1_SPI_OP_REG_READ || m->xop == ACCEL_TSP1_SPI_OP_BUF_READ)
        data0 += ACCEL_TSP1_SPI_DUMMY;
    if (at == 1 && m->xop == ACCEL_TSP1_SPI_OP_REG_READ)
        accel_store_u32le(m->xval, live ? accel__tsp1_model_reg(m, in) : 0u);
    if (at < data0) return 0;
    at -= data0;
    switch (m->xop) {
    case ACCEL_TSP1_SPI_OP_REG_READ: out = at < 4 ? m->xval[at] : 0u; break;
    case ACCEL_TSP1_SPI_OP_REG_WRITE:
        if (at < 4) m->xval[at] = in;
        if (at == 3 && live) {
            uint32_t v = accel_load_u32le(m->xval);
            if (m->xaddr == ACCEL_TSP1_REG_IRQ_MASK) m->irq_mask = v;
            if (m->xaddr == ACCEL_TSP1_REG_BUF_CTRL(0)) m->thr[0] = (uint16_t)(v & 0xFFFFu);
            if (m->xaddr == ACCEL_TSP1_REG_BUF_CTRL(1)) m->thr[1] = (uint16_t)(v & 0xFFFFu);
        }
        break;
    case ACCEL_TSP1_SPI_OP_BUF_WRITE:
        if (m->stage_len < m->cmd_cap) m->stage[m->stage_len] = in;
        m->stage_len++; /* bytes past the queue size are lost: the frame reads as cut off */
        break;
    case ACCEL_TSP1_SPI_OP_BUF_READ:
        if (live && m->xaddr == ACCEL_TSP1_BUF_RSP) out = accel__tsp1_model_rsp_byte(m);
        break;
    default: break;
    }
    return out;
}

static void accel__tsp1_model_end(accel_tsp1_model *m)
{
    if (m->xop == ACCEL_TSP1_SPI_OP_BUF_WRITE && m->xpos >= 2) {
        if (m->power == ACCEL_TSP1_MODEL_READY && m->xaddr == ACCEL_TSP1_BUF_CMD) {
            accel__tsp1_model_receive(m, m->stage, m->stage_len < m->cmd_cap ? m->stage_len : m->cmd_cap);
        } else {
            m->ignored_xfers++;
            accel__tsp1_model_log(m, ACCEL_TSP1_MODEL_IGNORED, ACCEL_TSP1_TID_NONE, 0, 0);
        }
    } else if (m->xpos < 2 || m->xop < ACCEL_TSP1_SPI_OP_REG_READ ||
               m->xop > ACCEL_TSP1_SPI_OP_BUF_WRITE) {
        m->ignored_xfers++;
    }
    m->xpos = 0;
    m->stage_len = 0;
}

static accel_status accel__tsp1_model_spi(void *user, uint8_t cs, const uint8_t *tx, uint8_t *rx,
                                     size_t len, unsigned flags)
{
    accel_tsp1_model *m = (accel_tsp1_model *)user;
    size_t i;
    (void)cs;
    for (i = 0; i < len; i++) {
        uint8_t o = accel__tsp1_model_byte(m, tx ? tx[i] : 0u);
        if (rx) rx[i] = o;
    }
    if (!(flags & ACCEL_SPI_KEEP_CS)) accel__tsp1_model_end(m);
    return ACCEL_OK;
}

#if ACCEL_TSP1_I2C
static accel_status accel__tsp1_model_i2c(void *user, uint16_t addr, const uint8_t *w, size_t wlen,
                                     uint8_t *r, size_t rlen)
{
    accel_tsp1_model *m = (accel_tsp1_model *)user;
    size_t i;
    (void)addr;
    for (i = 0; i < wlen; i++) (void)accel__tsp1_model_byte(m, w[i]); /* a write clocks nothing back */
    if (rlen) m->xpos += ACCEL_TSP1_SPI_DUMMY; /* no dummy bytes on I2C */
    for (i = 0; i < rlen; i++) r[i] = accel__tsp1_model_byte(m, 0);
    accel__tsp1_model_end(m);
    return ACCEL_OK;
}
#endif

static accel_status accel__tsp1_model_gpio(void *user, unsigned line, unsigned level)
{
    accel_tsp1_model *m = (accel_tsp1_model *)user;
    if (line == m->wake_line && level && m->power == ACCEL_TSP1_MODEL_ASLEEP)
        accel__tsp1_model_reset(m, m->boot_ms / 2u + 1u); /* waking is faster than booting */
    return ACCEL_OK;
}

static accel_status accel__tsp1_model_irq_line(void *user, unsigned line, uint32_t timeout_ms)
{
    accel_tsp1_model *m = (accel_tsp1_model *)user;
    (void)line;
    (void)timeout_ms;
    return (accel__tsp1_model_irq(m) & m->irq_mask) ? ACCEL_OK : ACCEL_E_TIMEOUT;
}

static void accel__tsp1_model_delay(void *user, uint32_t ms)
{
    accel_tsp1_model_advance((accel_tsp1_model *)user, ms);
}

ACCELDEF void accel_tsp1_model_port(accel_tsp1_model *m, accel_port *p)
{
    if (!m || !p) return;
    ACCEL_MEMSET(p, 0, sizeof *p);
    p->user = m;
    p->spi_transfer = accel__tsp1_model_spi;
#if ACCEL_TSP1_I2C
    p->i2c_write_read = accel__tsp1_model_i2c;
#endif
    p->gpio_set = accel__tsp1_model_gpio;
    p->wait_irq = accel__tsp1_model_irq_line;
    p->delay_ms = accel__tsp1_model_delay;
}
#endif
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_TSP1 */

/* ============================================================================================
 * SECTION: edgetpu (implementation) @edgetpu
 * ============================================================================================ */
#ifndef ACCEL_NO_EDGETPU
#ifdef __cplusplus
extern "C" {
#endif
/* -------------------------------------------------------- @edgetpu.insn: instructions */
/* lsb and width of each field, in ACCEL_EDGETPU_F_* order (edgetpuxray decompiler.py's
 * BitStruct read MSB-first over the byte-reversed bundle). */
static const uint8_t accel__edgetpu_flsb[ACCEL_EDGETPU_NFIELDS] = {
    110, 105, 102, 70, 65, 60, 54, 49, 44, 36, 31, 19, 14, 12, 11, 6, 5, 4, 1, 0};
static const uint8_t accel__edgetpu_fwid[ACCEL_EDGETPU_NFIELDS] = {
    18, 5, 3, 32, 5, 5, 6, 5, 5, 8, 5, 12, 5, 2, 1, 5, 1, 1, 3, 1};

ACCELDEF unsigned accel_edgetpu_field_lsb(unsigned field)
{
    return field < ACCEL_EDGETPU_NFIELDS ? accel__edgetpu_flsb[field] : 0u;
}

ACCELDEF unsigned accel_edgetpu_field_width(unsigned field)
{
    return field < ACCEL_EDGETPU_NFIELDS ? accel__edgetpu_fwid[field] : 0u;
}

static uint64_t accel__edgetpu_mask64(unsigned w)
{
    return w >= 64u ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1u);
}

ACCELDEF accel_status accel_edgetpu_decode_insn(const uint8_t bytes[16], accel_edgetpu_insn *out)
{
    /* straight-line on the two 32-bit halves that hold each field (one field, imm_scalar,
     * spans bits 70..101 of words 2 and 3); constant shifts, no table walk */
    uint32_t w0, w1, w2, w3;
    if (!bytes || !out) return ACCEL_E_NULL;
    w0 = accel_load_u32le(bytes);
    w1 = accel_load_u32le(bytes + 4);
    w2 = accel_load_u32le(bytes + 8);
    w3 = accel_load_u32le(bytes + 12);
    out->f[ACCEL_EDGETPU_F_UNK_3] = w3 >> 14;                                   /* 127..110 */
    out->f[ACCEL_EDGETPU_F_VS_REG_W] = (w3 >> 9) & 0x1Fu;                       /* 109..105 */
    out->f[ACCEL_EDGETPU_F_V_OP_2] = (w3 >> 6) & 0x7u;                          /* 104..102 */
    out->f[ACCEL_EDGETPU_F_IMM_SCALAR] = (w2 >> 6) | ((w3 & 0x3Fu) << 26);      /* 101..70 */
    out->f[ACCEL_EDGETPU_F_S_Y] = (w2 >> 1) & 0x1Fu;                            /* 69..65 */
    out->f[ACCEL_EDGETPU_F_S_X] = (w1 >> 28) | ((w2 & 1u) << 4);                /* 64..60 */
    out->f[ACCEL_EDGETPU_F_S_OP] = (w1 >> 22) & 0x3Fu;                          /* 59..54 */
    out->f[ACCEL_EDGETPU_F_VS_REG] = (w1 >> 17) & 0x1Fu;                        /* 53..49 */
    out->f[ACCEL_EDGETPU_F_V_CMD] = (w1 >> 12) & 0x1Fu;                         /* 48..44 */
    out->f[ACCEL_EDGETPU_F_V_OFFSET] = (w1 >> 4) & 0xFFu;                       /* 43..36 */
    out->f[ACCEL_EDGETPU_F_V_OP] = (w0 >> 31) | ((w1 & 0xFu) << 1);             /* 35..31 */
    out->f[ACCEL_EDGETPU_F_IMM_SIZE] = (w0 >> 19) & 0xFFFu;                     /* 30..19 */
    out->f[ACCEL_EDGETPU_F_VS_REG_V1] = (w0 >> 14) & 0x1Fu;                     /* 18..14 */
    out->f[ACCEL_EDGETPU_F_ENABLE_VECTOR] = (w0 >> 12) & 0x3u;                  /* 13..12 */
    out->f[ACCEL_EDGETPU_F_ENABLE_SCALAR] = (w0 >> 11) & 0x1u;                  /* 11 */
    out->f[ACCEL_EDGETPU_F_BRANCH] = (w0 >> 6) & 0x1Fu;                         /* 10..6 */
    out->f[ACCEL_EDGETPU_F_UNK_0] = (w0 >> 5) & 0x1u;                           /* 5 */
    out->f[ACCEL_EDGETPU_F_YES_PRED] = (w0 >> 4) & 0x1u;                        /* 4 */
    out->f[ACCEL_EDGETPU_F_PRED_REG] = (w0 >> 1) & 0x7u;                        /* 3..1 */
    out->f[ACCEL_EDGETPU_F_GATE] = w0 & 0x1u;                                   /* 0 */
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_encode_insn(const accel_edgetpu_insn *in, uint8_t out[16])
{
    uint64_t lo = 0, hi = 0;
    unsigned i;
    if (!in || !out) return ACCEL_E_NULL;
    for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++)
        if ((uint64_t)in->f[i] > accel__edgetpu_mask64(accel__edgetpu_fwid[i])) return ACCEL_E_ARG;
    for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++) {
        unsigned l = accel__edgetpu_flsb[i];
        uint64_t v = in->f[i];
        if (l >= 64u) {
            hi |= v << (l - 64u);
        } else {
            lo |= v << l;
            if (l + accel__edgetpu_fwid[i] > 64u) hi |= v >> (64u - l);
        }
    }
    accel_store_u64le(out, lo);
    accel_store_u64le(out + 8, hi);
    return ACCEL_OK;
}

/* Range check shared by the bit accessors: [lsb, lsb+width) inside len bytes, no overflow. */
static accel_status accel__edgetpu_bits_ok(size_t len, uint32_t lsb, unsigned width)
{
    if (width < 1u || width > 32u) return ACCEL_E_ARG;
    /* in 64 bits: lsb + width must not wrap (found by fuzz_edgetpu) */
    if ((uint64_t)lsb + width > (uint64_t)len * 8u) return ACCEL_E_ARG;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_bits_get(const uint8_t *buf, size_t len, uint32_t lsb,
                                             unsigned width, uint32_t *out)
{
    accel_status st;
    uint32_t v = 0;
    unsigned done = 0;
    if (!buf || !out) return ACCEL_E_NULL;
    st = accel__edgetpu_bits_ok(len, lsb, width);
    if (st != ACCEL_OK) return st;
    while (done < width) {
        size_t byte = (size_t)((lsb + done) / 8u);
        unsigned bit = (unsigned)((lsb + done) % 8u);
        unsigned take = 8u - bit;
        uint32_t piece;
        if (take > width - done) take = width - done;
        piece = ((uint32_t)buf[byte] >> bit) & (((uint32_t)1 << take) - 1u);
        v |= piece << done;
        done += take;
    }
    *out = v;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_bits_set(uint8_t *buf, size_t len, uint32_t lsb,
                                             unsigned width, uint32_t value)
{
    accel_status st;
    unsigned done = 0;
    if (!buf) return ACCEL_E_NULL;
    st = accel__edgetpu_bits_ok(len, lsb, width);
    if (st != ACCEL_OK) return st;
    if (width < 32u && (value >> width) != 0u) return ACCEL_E_ARG;
    while (done < width) {
        size_t byte = (size_t)((lsb + done) / 8u);
        unsigned bit = (unsigned)((lsb + done) % 8u);
        unsigned take = 8u - bit;
        uint32_t m;
        if (take > width - done) take = width - done;
        m = (((uint32_t)1 << take) - 1u) << bit;
        buf[byte] = (uint8_t)(((uint32_t)buf[byte] & ~m) | (((value >> done) << bit) & m));
        done += take;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_patch32(uint8_t *bitstream, size_t len, uint32_t offset_bit,
                                            uint32_t value)
{
    return accel_edgetpu_bits_set(bitstream, len, offset_bit, 32u, value);
}

/* START's length immediate is fused over imm_size, v_op and v_offset (bits 19..43): the shared
 * models' programs need the v_offset part (bright_16x16: 145664 bits = v_offset 1). */
static uint32_t accel__edgetpu_start_len(const accel_edgetpu_insn *in)
{
    return (in->f[ACCEL_EDGETPU_F_V_OFFSET] << 17) | (in->f[ACCEL_EDGETPU_F_V_OP] << 12) |
           in->f[ACCEL_EDGETPU_F_IMM_SIZE];
}

static void accel__edgetpu_simple(uint8_t out[16], uint32_t branch, uint32_t size25,
                                  uint32_t vs_reg_v1)
{
    accel_edgetpu_insn in;
    ACCEL_MEMSET(&in, 0, sizeof in);
    in.f[ACCEL_EDGETPU_F_ENABLE_SCALAR] = 1u;
    in.f[ACCEL_EDGETPU_F_BRANCH] = branch;
    in.f[ACCEL_EDGETPU_F_IMM_SIZE] = size25 & 0xFFFu;
    in.f[ACCEL_EDGETPU_F_V_OP] = (size25 >> 12) & 0x1Fu;
    in.f[ACCEL_EDGETPU_F_V_OFFSET] = (size25 >> 17) & 0xFFu;
    in.f[ACCEL_EDGETPU_F_VS_REG_V1] = vs_reg_v1;
    (void)accel_edgetpu_encode_insn(&in, out);
}

ACCELDEF accel_status accel_edgetpu_prog_build(const uint8_t *body, size_t body_count,
                                               uint8_t *out, size_t cap, size_t *out_len)
{
    size_t total, i;
    uint32_t bits;
    if (!out || !out_len || (!body && body_count)) return ACCEL_E_NULL;
    /* START's length is 25 bits of bit count: at most 262143 bundles between START and END. */
    if ((uint64_t)body_count + 5u > 262143UL) return ACCEL_E_TOO_LONG;
    if (body_count > SIZE_MAX / 16u - 7u) return ACCEL_E_TOO_LONG; /* 16-bit size_t */
    total = (body_count + 7u) * ACCEL_EDGETPU_INSN_BYTES;
    if (cap < total) return ACCEL_E_BUFFER_TOO_SMALL;
    bits = (uint32_t)(body_count + 5u) * 128u;
    accel__edgetpu_simple(out, ACCEL_EDGETPU_BR_START, bits, 0);
    if (body_count) ACCEL_MEMCPY(out + 16, body, body_count * 16u);
    i = 16u + body_count * 16u;
    accel__edgetpu_simple(out + i, ACCEL_EDGETPU_BR_HALT, 0, 4u);
    accel__edgetpu_simple(out + i + 16u, 0, 0, 0);
    accel__edgetpu_simple(out + i + 32u, 0, 0, 0);
    accel__edgetpu_simple(out + i + 48u, 0, 0, 0);
    accel__edgetpu_simple(out + i + 64u, 0, 0, 0);
    accel__edgetpu_simple(out + i + 80u, ACCEL_EDGETPU_BR_END, 0x80u, 0);
    *out_len = total;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_prog_length(const uint8_t start[16], uint32_t *bits)
{
    accel_edgetpu_insn in;
    if (!start || !bits) return ACCEL_E_NULL;
    (void)accel_edgetpu_decode_insn(start, &in);
    if (in.f[ACCEL_EDGETPU_F_BRANCH] != ACCEL_EDGETPU_BR_START) return ACCEL_E_MALFORMED;
    *bits = accel__edgetpu_start_len(&in);
    return ACCEL_OK;
}

#ifndef ACCEL_EDGETPU_NO_DISASM
static const char *const accel__edgetpu_fname[ACCEL_EDGETPU_NFIELDS] = {
    "unk_3", "vs_reg_w", "v_op_2", "imm_scalar", "s_y", "s_x", "s_op", "vs_reg", "v_cmd",
    "v_offset", "v_op", "imm_size", "vs_reg_v1", "enable_vector", "enable_scalar", "branch",
    "unk_0", "yes_pred", "pred_reg", "gate"};
static const char *const accel__edgetpu_sops[16] = {
    "NOP", "ADD", "SUB", "AND", "ORR", "XOR", "SHL", "SHR",
    "ASR", "EQ", "NEQ", "GT", "ULT", "GEQ", "GES", "MOV"};

ACCELDEF const char *accel_edgetpu_field_name(unsigned field)
{
    return field < ACCEL_EDGETPU_NFIELDS ? accel__edgetpu_fname[field] : "?";
}

/* Tiny string builder: sticky overflow, always NUL-terminated when cap > 0. */
typedef struct accel__edgetpu_sb {
    char *p;
    size_t cap, len;
    int over;
} accel__edgetpu_sb;

static void accel__edgetpu_sb_c(accel__edgetpu_sb *s, char c)
{
    if (s->len + 1u >= s->cap) {
        s->over = 1;
        return;
    }
    s->p[s->len++] = c;
    s->p[s->len] = '\0';
}

static void accel__edgetpu_sb_s(accel__edgetpu_sb *s, const char *str)
{
    while (*str) accel__edgetpu_sb_c(s, *str++);
}

/* Hex with "0x" prefix, at least `digits` (<= 8) digits. A uint32_t has at most 8 hex digits,
 * so tmp cannot overflow without a bound in the loop. */
static void accel__edgetpu_sb_hex(accel__edgetpu_sb *s, uint32_t v, unsigned digits)
{
    char tmp[8];
    unsigned n = 0;
    ACCEL_ASSERT(digits <= 8u);
    accel__edgetpu_sb_s(s, "0x");
    do {
        tmp[n++] = "0123456789abcdef"[v & 0xFu];
        v >>= 4;
    } while (v);
    while (n < digits) tmp[n++] = '0';
    while (n) accel__edgetpu_sb_c(s, tmp[--n]);
}

/* A uint32_t has at most 10 decimal digits. */
static void accel__edgetpu_sb_dec(accel__edgetpu_sb *s, uint32_t v)
{
    char tmp[10];
    unsigned n = 0;
    do {
        tmp[n++] = (char)('0' + (char)(v % 10u));
        v /= 10u;
    } while (v);
    while (n) accel__edgetpu_sb_c(s, tmp[--n]);
}

ACCELDEF accel_status accel_edgetpu_disasm(const uint8_t bytes[16], uint32_t offset, char *out,
                                           size_t cap, size_t *out_len)
{
    accel_edgetpu_insn in;
    accel__edgetpu_sb sb;
    const uint32_t *f = in.f;
    uint8_t shown[ACCEL_EDGETPU_NFIELDS];
    unsigned i, any = 0;
    uint32_t br, sop;
    size_t col;
    if (!bytes || !out) return ACCEL_E_NULL;
    if (cap == 0) return ACCEL_E_BUFFER_TOO_SMALL;
    sb.p = out;
    sb.cap = cap;
    sb.len = 0;
    sb.over = 0;
    out[0] = '\0';
    ACCEL_MEMSET(shown, 0, sizeof shown);
    (void)accel_edgetpu_decode_insn(bytes, &in);
    br = f[ACCEL_EDGETPU_F_BRANCH];
    sop = f[ACCEL_EDGETPU_F_S_OP];
    shown[ACCEL_EDGETPU_F_ENABLE_SCALAR] = shown[ACCEL_EDGETPU_F_ENABLE_VECTOR] = 1;
    shown[ACCEL_EDGETPU_F_GATE] = shown[ACCEL_EDGETPU_F_YES_PRED] = 1;
    shown[ACCEL_EDGETPU_F_PRED_REG] = shown[ACCEL_EDGETPU_F_BRANCH] = 1;

    accel__edgetpu_sb_hex(&sb, offset, 4);
    accel__edgetpu_sb_c(&sb, ' ');
    /* unit flags: 4 columns */
    col = sb.len;
    if (f[ACCEL_EDGETPU_F_ENABLE_SCALAR]) accel__edgetpu_sb_c(&sb, 'S');
    if (f[ACCEL_EDGETPU_F_ENABLE_VECTOR]) {
        accel__edgetpu_sb_c(&sb, 'V');
        accel__edgetpu_sb_dec(&sb, f[ACCEL_EDGETPU_F_ENABLE_VECTOR]);
    }
    while (sb.len < col + 4u && !sb.over) accel__edgetpu_sb_c(&sb, ' ');
    /* predication: 6 columns */
    col = sb.len;
    if (f[ACCEL_EDGETPU_F_GATE]) {
        accel__edgetpu_sb_s(&sb, f[ACCEL_EDGETPU_F_YES_PRED] ? "@p" : "@!p");
        accel__edgetpu_sb_dec(&sb, f[ACCEL_EDGETPU_F_PRED_REG]);
    } else {
        /* without the gate the predicate fields are plain bits: show them if set */
        shown[ACCEL_EDGETPU_F_YES_PRED] = (uint8_t)(f[ACCEL_EDGETPU_F_YES_PRED] == 0);
        shown[ACCEL_EDGETPU_F_PRED_REG] = (uint8_t)(f[ACCEL_EDGETPU_F_PRED_REG] == 0);
    }
    while (sb.len < col + 6u && !sb.over) accel__edgetpu_sb_c(&sb, ' ');

    if (br == ACCEL_EDGETPU_BR_START) {
        accel__edgetpu_sb_s(&sb, "START len=");
        accel__edgetpu_sb_dec(&sb, accel__edgetpu_start_len(&in));
        accel__edgetpu_sb_s(&sb, " bits");
        shown[ACCEL_EDGETPU_F_V_OP] = shown[ACCEL_EDGETPU_F_IMM_SIZE] = 1;
        shown[ACCEL_EDGETPU_F_V_OFFSET] = 1;
        any = 1;
    } else if (br == ACCEL_EDGETPU_BR_END) {
        accel__edgetpu_sb_s(&sb, "END");
        any = 1;
    } else if (br == ACCEL_EDGETPU_BR_HALT) {
        accel__edgetpu_sb_s(&sb, "HALT");
        any = 1;
    } else if (br != 0) {
        accel__edgetpu_sb_s(&sb, "br.");
        accel__edgetpu_sb_hex(&sb, br, 2);
        any = 1;
    } else if (f[ACCEL_EDGETPU_F_ENABLE_SCALAR] && sop != 0 && (sop & 0x10u) == 0) {
        /* scalar ALU: x = y OP operand, compares write predicate x */
        uint32_t op = sop & 0xFu, imm = f[ACCEL_EDGETPU_F_IMM_SCALAR];
        int is_imm = (sop & ACCEL_EDGETPU_SOP_IMM) != 0;
        accel__edgetpu_sb_c(&sb, (op >= 9u && op <= 14u) ? 'p' : 's');
        accel__edgetpu_sb_dec(&sb, f[ACCEL_EDGETPU_F_S_X]);
        accel__edgetpu_sb_s(&sb, " = ");
        if (op != 15u) {
            accel__edgetpu_sb_c(&sb, 's');
            accel__edgetpu_sb_dec(&sb, f[ACCEL_EDGETPU_F_S_Y]);
            accel__edgetpu_sb_c(&sb, ' ');
            accel__edgetpu_sb_s(&sb, accel__edgetpu_sops[op]);
            accel__edgetpu_sb_c(&sb, ' ');
            shown[ACCEL_EDGETPU_F_S_Y] = 1;
        } else {
            accel__edgetpu_sb_s(&sb, is_imm ? "MOVI " : "MOV ");
            shown[ACCEL_EDGETPU_F_S_Y] = (uint8_t)(f[ACCEL_EDGETPU_F_S_Y] == 0);
        }
        if (is_imm) {
            accel__edgetpu_sb_hex(&sb, imm, 1);
            shown[ACCEL_EDGETPU_F_IMM_SCALAR] = 1;
        } else {
            accel__edgetpu_sb_c(&sb, 's');
            accel__edgetpu_sb_dec(&sb, imm & 0x1Fu);
            shown[ACCEL_EDGETPU_F_IMM_SCALAR] = (uint8_t)((imm >> 5) == 0);
        }
        shown[ACCEL_EDGETPU_F_S_OP] = shown[ACCEL_EDGETPU_F_S_X] = 1;
        any = 1;
    } else if (f[ACCEL_EDGETPU_F_ENABLE_SCALAR] && sop == 0) {
        accel__edgetpu_sb_s(&sb, "NOP");
        any = 1;
    }
    /* every other non-zero field, by name */
    for (i = 0; i < ACCEL_EDGETPU_NFIELDS; i++) {
        if (shown[i] || f[i] == 0) continue;
        if (any) accel__edgetpu_sb_s(&sb, any == 1 ? "  | " : " ");
        any = 2;
        accel__edgetpu_sb_s(&sb, accel__edgetpu_fname[i]);
        accel__edgetpu_sb_c(&sb, '=');
        accel__edgetpu_sb_hex(&sb, f[i], 1);
    }
    if (!any) accel__edgetpu_sb_s(&sb, "(empty)");
    if (sb.over) return ACCEL_E_BUFFER_TOO_SMALL;
    if (out_len) *out_len = sb.len;
    return ACCEL_OK;
}
#endif /* ACCEL_EDGETPU_NO_DISASM */

/* -------------------------------------------------------- @edgetpu.package: FlexBuffers and helpers */
static int accel__edgetpu_memeq(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static int accel__edgetpu_view_eq(accel_edgetpu_view v, const char *s)
{
    size_t i = 0;
    if (!v.p) return 0;
    for (; i < v.len; i++)
        if (s[i] == '\0' || (uint8_t)s[i] != v.p[i]) return 0;
    return s[i] == '\0';
}

/* ---- @edgetpu.package: FlexBuffers: just enough to look up a string/blob by key in the root map ---- */
static accel_status accel__edgetpu_flex_uint(const uint8_t *b, size_t len, size_t pos,
                                             unsigned w, uint64_t *out)
{
    unsigned k;
    uint64_t v = 0;
    if (!accel__fb_fits(len, pos, w)) return ACCEL_E_MALFORMED;
    for (k = w; k > 0; k--) v = (v << 8) | b[pos + k - 1u];
    *out = v;
    return ACCEL_OK;
}

/* target = pos - offset read at pos (FlexBuffers offsets point backwards). */
static accel_status accel__edgetpu_flex_back(const uint8_t *b, size_t len, size_t pos,
                                             unsigned w, size_t *target)
{
    uint64_t off;
    accel_status st = accel__edgetpu_flex_uint(b, len, pos, w, &off);
    if (st != ACCEL_OK) return st;
    if (off == 0 || off > (uint64_t)pos) return ACCEL_E_MALFORMED;
    *target = pos - (size_t)off;
    return ACCEL_OK;
}

static int accel__edgetpu_flex_w_ok(uint64_t w)
{
    return w == 1u || w == 2u || w == 4u || w == 8u;
}

static accel_status accel__edgetpu_flex_find(const uint8_t *b, size_t len, const char *key,
                                             accel_edgetpu_view *out)
{
    unsigned rw, mw, kw;
    uint8_t packed;
    size_t root, map, keys, i;
    uint64_t size, kw64, ksize;
    accel_status st;
    out->p = NULL;
    out->len = 0;
    if (!b || len < 3u) return ACCEL_E_MALFORMED;
    rw = b[len - 1u];
    packed = b[len - 2u];
    if (!accel__edgetpu_flex_w_ok(rw) || len < 2u + rw) return ACCEL_E_MALFORMED;
    if ((packed >> 2) != 9u) return ACCEL_E_MALFORMED; /* FBT_MAP */
    root = len - 2u - rw;
    mw = 1u << (packed & 3u);
    st = accel__edgetpu_flex_back(b, len, root, rw, &map);
    if (st != ACCEL_OK) return st;
    if (map < (size_t)3 * mw) return ACCEL_E_MALFORMED;
    st = accel__edgetpu_flex_uint(b, len, map - mw, mw, &size);
    if (st == ACCEL_OK) st = accel__edgetpu_flex_uint(b, len, map - (size_t)2 * mw, mw, &kw64);
    if (st == ACCEL_OK) st = accel__edgetpu_flex_back(b, len, map - (size_t)3 * mw, mw, &keys);
    if (st != ACCEL_OK) return st;
    if (!accel__edgetpu_flex_w_ok(kw64)) return ACCEL_E_MALFORMED;
    kw = (unsigned)kw64;
    /* values then one type byte per value; keys vector has its own size */
    if (size > (uint64_t)(len - map) / (mw + 1u)) return ACCEL_E_MALFORMED;
    if (keys < kw) return ACCEL_E_MALFORMED;
    st = accel__edgetpu_flex_uint(b, len, keys - kw, kw, &ksize);
    if (st != ACCEL_OK) return st;
    if (ksize != size || size > (uint64_t)(len - keys) / kw) return ACCEL_E_MALFORMED;
    for (i = 0; i < (size_t)size; i++) {
        size_t kp, j, vpos, tgt;
        uint8_t vt;
        uint64_t n;
        st = accel__edgetpu_flex_back(b, len, keys + i * kw, kw, &kp);
        if (st != ACCEL_OK) return st;
        for (j = 0; kp + j < len && key[j] != '\0' && b[kp + j] == (uint8_t)key[j]; j++) {
        }
        if (kp + j >= len) return ACCEL_E_MALFORMED;
        if (key[j] != '\0' || b[kp + j] != 0) continue;
        vpos = map + i * mw;
        vt = b[map + (size_t)size * mw + i];
        if ((vt >> 2) != 5u && (vt >> 2) != 25u) return ACCEL_E_MALFORMED; /* STRING, BLOB */
        st = accel__edgetpu_flex_back(b, len, vpos, mw, &tgt);
        if (st != ACCEL_OK) return st;
        if (tgt < mw) return ACCEL_E_MALFORMED;
        st = accel__edgetpu_flex_uint(b, len, tgt - mw, mw, &n);
        if (st != ACCEL_OK) return st;
        if (n > (uint64_t)(len - tgt)) return ACCEL_E_MALFORMED;
        out->p = b + tgt;
        out->len = (size_t)n;
        return ACCEL_OK;
    }
    return ACCEL_E_EMPTY;
}

/* ---- @edgetpu.package: executables ---- */
static accel_status accel__edgetpu_meta(const accel_edgetpu_fbt *t, unsigned i, int *desc,
                                        int *position, int32_t *batch, accel_edgetpu_view *name)
{
    accel_edgetpu_fbt m;
    int present;
    accel_status st = accel_fb_subtable(t, i, &m, &present);
    *desc = 0;
    *position = 0;
    *batch = 0;
    name->p = NULL;
    name->len = 0;
    if (st != ACCEL_OK) return st;
    if (!present) return ACCEL_E_MALFORMED; /* every field offset and DMA hint has meta */
    st = accel_fb_i16(&m, 0, desc);
    if (st == ACCEL_OK) st = accel_fb_i32(&m, 1, 0, batch);
    if (st == ACCEL_OK) st = accel_fb_string(&m, 2, name);
    if (st == ACCEL_OK) st = accel_fb_i16(&m, 3, position);
    if (st != ACCEL_OK) return st;
    if (*desc < 0 || *desc > 3 || *position < 0 || *position > 1 || *batch < 0)
        return ACCEL_E_MALFORMED;
    return ACCEL_OK;
}

static accel_status accel__edgetpu_exe_parse(const uint8_t *buf, size_t len,
                                             accel_edgetpu_exe *e)
{
    accel_edgetpu_fbt dh;
    uint64_t v = 0;
    uint32_t n = 0;
    int present;
    accel_status st;
    ACCEL_MEMSET(e, 0, sizeof *e);
    st = accel_fb_root(&e->t_, buf, len);
    if (st == ACCEL_OK) st = accel_fb_i32(&e->t_, 0, 0, &e->version);
    if (st == ACCEL_OK) st = accel_fb_string(&e->t_, 1, &e->name);
    if (st == ACCEL_OK) st = accel_fb_i32(&e->t_, 3, 0, &e->batch_size);
    if (st == ACCEL_OK) st = accel_fb_i32(&e->t_, 4, 0, &e->scratch_size_bytes);
    if (st == ACCEL_OK) st = accel_fb_vector(&e->t_, 5, 4, &e->bs_vec_, &n);
    e->n_bitstreams = n;
    if (st == ACCEL_OK) st = accel_fb_bytes(&e->t_, 6, &e->parameters);
    if (st == ACCEL_OK) st = accel_fb_vector(&e->t_, 8, 4, &e->in_vec_, &n);
    e->n_inputs = n;
    if (st == ACCEL_OK) st = accel_fb_vector(&e->t_, 9, 4, &e->out_vec_, &n);
    e->n_outputs = n;
    if (st == ACCEL_OK) st = accel_fb_string(&e->t_, 10, &e->chip);
    if (st == ACCEL_OK) st = accel_fb_i32(&e->t_, 11, 0, &e->estimated_cycles);
    if (st == ACCEL_OK)
        st = accel_fb_i32(&e->t_, 12, 0, &e->used_narrow_memory_bytes_per_tile);
    if (st == ACCEL_OK) st = accel_fb_i16(&e->t_, 13, &e->type);
    if (st == ACCEL_OK) st = accel_fb_scalar(&e->t_, 14, 8, 0, &e->parameter_caching_token);
    if (st == ACCEL_OK) st = accel_fb_scalar(&e->t_, 16, 8, 0, &v);
    if (st != ACCEL_OK) return st;
    e->estimated_cycles_64bit = (v & 0x8000000000000000ULL) ? -(int64_t)(~v) - 1 : (int64_t)v;
    if (e->type < 0 || e->type > 2 || e->batch_size < 0 || e->scratch_size_bytes < 0)
        return ACCEL_E_MALFORMED;
    st = accel_fb_subtable(&e->t_, 7, &dh, &present);
    if (st != ACCEL_OK) return st;
    if (present) {
        e->has_dma_hints = 1;
        st = accel_fb_vector(&dh, 0, 4, &e->hint_vec_, &n);
        if (st == ACCEL_OK) st = accel_fb_scalar(&dh, 1, 1, 0, &v);
        if (st != ACCEL_OK) return st;
        e->n_hints = n;
        e->fully_deterministic = v != 0;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_exe_bitstream(const accel_edgetpu_exe *e, uint32_t i,
                                                  accel_edgetpu_bitstream *out)
{
    size_t p;
    uint32_t n;
    accel_status st;
    if (!e || !out) return ACCEL_E_NULL;
    if (i >= e->n_bitstreams) return ACCEL_E_ARG;
    ACCEL_MEMSET(out, 0, sizeof *out);
    st = accel_fb_elem(e->t_.buf, e->t_.len, e->bs_vec_, i, &p);
    if (st == ACCEL_OK) st = accel_fb_table_at(&out->t_, e->t_.buf, e->t_.len, p);
    if (st == ACCEL_OK) st = accel_fb_bytes(&out->t_, 0, &out->bits);
    if (st == ACCEL_OK) st = accel_fb_vector(&out->t_, 1, 4, &out->fo_vec_, &n);
    if (st != ACCEL_OK) return st;
    out->n_field_offsets = n;
    if (!out->bits.p || out->bits.len == 0 || out->bits.len % ACCEL_EDGETPU_INSN_BYTES)
        return ACCEL_E_MALFORMED;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_bitstream_field_offset(const accel_edgetpu_bitstream *b,
                                                           uint32_t i,
                                                           accel_edgetpu_field_offset *out)
{
    accel_edgetpu_fbt t;
    size_t p;
    int32_t bit;
    accel_status st;
    if (!b || !out) return ACCEL_E_NULL;
    if (i >= b->n_field_offsets) return ACCEL_E_ARG;
    ACCEL_MEMSET(out, 0, sizeof *out);
    st = accel_fb_elem(b->t_.buf, b->t_.len, b->fo_vec_, i, &p);
    if (st == ACCEL_OK) st = accel_fb_table_at(&t, b->t_.buf, b->t_.len, p);
    if (st == ACCEL_OK)
        st = accel__edgetpu_meta(&t, 0, &out->desc, &out->position, &out->batch, &out->name);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 1, 0, &bit);
    if (st != ACCEL_OK) return st;
    /* the patched 32 bits must lie inside the bitstream */
    if (bit < 0 || (uint64_t)(uint32_t)bit + 32u > (uint64_t)b->bits.len * 8u)
        return ACCEL_E_MALFORMED;
    out->offset_bit = (uint32_t)bit;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_exe_hint(const accel_edgetpu_exe *e, uint32_t i,
                                             accel_edgetpu_hint *out)
{
    accel_edgetpu_fbt t, h;
    size_t p;
    uint64_t kind;
    int present;
    accel_status st;
    if (!e || !out) return ACCEL_E_NULL;
    if (i >= e->n_hints) return ACCEL_E_ARG;
    ACCEL_MEMSET(out, 0, sizeof *out);
    st = accel_fb_elem(e->t_.buf, e->t_.len, e->hint_vec_, i, &p);
    if (st == ACCEL_OK) st = accel_fb_table_at(&t, e->t_.buf, e->t_.len, p);
    if (st == ACCEL_OK) st = accel_fb_scalar(&t, 0, 1, 0, &kind);
    if (st == ACCEL_OK) st = accel_fb_i16(&t, 2, &out->direction);
    if (st == ACCEL_OK) st = accel_fb_subtable(&t, 1, &h, &present);
    if (st != ACCEL_OK) return st;
    if (kind < 1u || kind > 4u || !present || out->direction < 0 || out->direction > 1)
        return ACCEL_E_MALFORMED;
    out->kind = (int)kind;
    if (kind == ACCEL_EDGETPU_HINT_DMA) {
        int32_t off, size;
        st = accel__edgetpu_meta(&h, 0, &out->desc, &present, &out->batch, &out->name);
        if (st == ACCEL_OK) st = accel_fb_i32(&h, 1, 0, &off);
        if (st == ACCEL_OK) st = accel_fb_i32(&h, 2, 0, &size);
        if (st != ACCEL_OK) return st;
        if (off < 0 || size <= 0) return ACCEL_E_MALFORMED;
        out->offset_in_bytes = (uint32_t)off;
        out->size_in_bytes = (uint32_t)size;
    } else if (kind == ACCEL_EDGETPU_HINT_INSTRUCTION) {
        int32_t c;
        st = accel_fb_i32(&h, 0, 0, &c);
        if (st != ACCEL_OK) return st;
        if (c < 0 || (uint32_t)c >= e->n_bitstreams) return ACCEL_E_MALFORMED;
        out->instruction_chunk_index = (uint32_t)c;
    } else if (kind == ACCEL_EDGETPU_HINT_INTERRUPT) {
        st = accel_fb_i16(&h, 0, &out->interrupt_type);
        if (st != ACCEL_OK) return st;
        if (out->interrupt_type < 0 || out->interrupt_type > 3) return ACCEL_E_MALFORMED;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_exe_layer(const accel_edgetpu_exe *e, int is_output,
                                              uint32_t i, accel_edgetpu_layer *out)
{
    accel_edgetpu_fbt t, num;
    size_t p;
    int32_t size;
    uint64_t fbits;
    int present;
    accel_status st;
    if (!e || !out) return ACCEL_E_NULL;
    if (i >= (is_output ? e->n_outputs : e->n_inputs)) return ACCEL_E_ARG;
    ACCEL_MEMSET(out, 0, sizeof *out);
    st = accel_fb_elem(e->t_.buf, e->t_.len, is_output ? e->out_vec_ : e->in_vec_, i,
                                &p);
    if (st == ACCEL_OK) st = accel_fb_table_at(&t, e->t_.buf, e->t_.len, p);
    if (st == ACCEL_OK) st = accel_fb_string(&t, 0, &out->name);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 1, 0, &size);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 2, 0, &out->y_dim);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 3, 0, &out->x_dim);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 4, 0, &out->z_dim);
    if (st == ACCEL_OK) st = accel_fb_i16(&t, 6, &out->data_type);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 9, 1, &out->execution_count_per_inference);
    if (st == ACCEL_OK) st = accel_fb_subtable(&t, 5, &num, &present);
    if (st != ACCEL_OK) return st;
    if (present) {
        st = accel_fb_i32(&num, 0, 0, &out->zero_point);
        if (st == ACCEL_OK) st = accel_fb_scalar(&num, 1, 4, 0, &fbits);
        if (st != ACCEL_OK) return st;
        out->dequantization_factor_bits = (uint32_t)fbits;
    }
    if (size < 0 || out->y_dim < 0 || out->x_dim < 0 || out->z_dim < 0 ||
        out->execution_count_per_inference < 0)
        return ACCEL_E_MALFORMED;
    out->size_bytes = (uint32_t)size;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_package_executable(const accel_edgetpu_package *m, uint32_t i,
                                                     accel_edgetpu_exe *out)
{
    size_t p;
    uint32_t n;
    accel_status st;
    if (!m || !out) return ACCEL_E_NULL;
    if (i >= m->n_executables) return ACCEL_E_ARG;
    st = accel_fb_elem(m->multi.p, m->multi.len, m->exe_vec_, i, &p);
    if (st != ACCEL_OK) return st;
    if (!accel__fb_fits(m->multi.len, p, 4)) return ACCEL_E_MALFORMED;
    n = accel_load_u32le(m->multi.p + p);
    if ((uint64_t)n > (uint64_t)(m->multi.len - p - 4u)) return ACCEL_E_MALFORMED;
    return accel__edgetpu_exe_parse(m->multi.p + p + 4u, (size_t)n, out);
}

/* Validate one executable completely, with cross references. */
static accel_status accel__edgetpu_exe_check(const accel_edgetpu_exe *e)
{
    uint32_t i, j;
    accel_status st;
    if (e->n_bitstreams == 0 && e->type != ACCEL_EDGETPU_PARAMETER_CACHING)
        return ACCEL_E_MALFORMED;
    for (i = 0; i < e->n_bitstreams; i++) {
        accel_edgetpu_bitstream b;
        st = accel_edgetpu_exe_bitstream(e, i, &b);
        if (st != ACCEL_OK) return st;
        for (j = 0; j < b.n_field_offsets; j++) {
            accel_edgetpu_field_offset fo;
            st = accel_edgetpu_bitstream_field_offset(&b, j, &fo);
            if (st != ACCEL_OK) return st;
        }
    }
    for (i = 0; i < e->n_hints; i++) {
        accel_edgetpu_hint h;
        st = accel_edgetpu_exe_hint(e, i, &h);
        if (st != ACCEL_OK) return st;
        if (h.kind == ACCEL_EDGETPU_HINT_DMA && h.desc == ACCEL_EDGETPU_DESC_PARAMETER &&
            (uint64_t)h.offset_in_bytes + h.size_in_bytes > (uint64_t)e->parameters.len)
            return ACCEL_E_MALFORMED;
    }
    for (i = 0; i < e->n_inputs + e->n_outputs; i++) {
        accel_edgetpu_layer l;
        int out = i >= e->n_inputs ? 1 : 0;
        st = accel_edgetpu_exe_layer(e, out, out ? i - e->n_inputs : i, &l);
        if (st != ACCEL_OK) return st;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_package_init(accel_edgetpu_package *m, const uint8_t *pkg,
                                                 size_t len)
{
    accel_edgetpu_fbt pt, mt;
    uint32_t n, i;
    accel_status st;
    if (!m || !pkg) return ACCEL_E_NULL;
    ACCEL_MEMSET(m, 0, sizeof *m);
    if (len < 8u || pkg[4] != 'D' || pkg[5] != 'W' || pkg[6] != 'N' || pkg[7] != '1')
        return ACCEL_E_MALFORMED;
    m->package.p = pkg;
    m->package.len = len;
    st = accel_fb_root(&pt, pkg, len);
    if (st == ACCEL_OK) st = accel_fb_i32(&pt, 0, 0, &m->min_runtime_version);
    if (st == ACCEL_OK) st = accel_fb_bytes(&pt, 1, &m->multi);
    if (st == ACCEL_OK) st = accel_fb_bytes(&pt, 2, &m->signature);
    if (st == ACCEL_OK) st = accel_fb_i32(&pt, 3, 0, &m->keypair_version);
    if (st == ACCEL_OK) st = accel_fb_string(&pt, 4, &m->compiler_version);
    if (st == ACCEL_OK) st = accel_fb_i32(&pt, 5, 0, &m->virtual_chip_id);
    if (st == ACCEL_OK) st = accel_fb_string(&pt, 7, &m->model_identifier);
    if (st != ACCEL_OK) return st;
    if (!m->multi.p) return ACCEL_E_MALFORMED;
    st = accel_fb_root(&mt, m->multi.p, m->multi.len);
    if (st == ACCEL_OK) st = accel_fb_vector(&mt, 0, 4, &m->exe_vec_, &n);
    if (st != ACCEL_OK) return st;
    if (n == 0) return ACCEL_E_MALFORMED;
    if (n > ACCEL_EDGETPU_MAX_EXECUTABLES) return ACCEL_E_TOO_LONG;
    m->n_executables = n;
    for (i = 0; i < n; i++) {
        accel_edgetpu_exe e;
        st = accel_edgetpu_package_executable(m, i, &e);
        if (st == ACCEL_OK) st = accel__edgetpu_exe_check(&e);
        if (st != ACCEL_OK) {
            m->n_executables = 0;
            return st;
        }
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_package_init_tflite(accel_edgetpu_package *m, const uint8_t *tflite,
                                                       size_t len)
{
    accel_edgetpu_fbt root, t;
    size_t codes, subgraphs, p;
    uint32_t ncodes, nsub, k, s, code = 0;
    int found = 0;
    accel_edgetpu_view opts, v;
    accel_status st;
    if (!m || !tflite) return ACCEL_E_NULL;
    ACCEL_MEMSET(m, 0, sizeof *m);
    st = accel_fb_root(&root, tflite, len);
    if (st == ACCEL_OK) st = accel_fb_vector(&root, 1, 4, &codes, &ncodes);
    if (st == ACCEL_OK) st = accel_fb_vector(&root, 2, 4, &subgraphs, &nsub);
    if (st != ACCEL_OK) return st;
    for (k = 0; k < ncodes && !found; k++) {
        st = accel_fb_elem(tflite, len, codes, k, &p);
        if (st == ACCEL_OK) st = accel_fb_table_at(&t, tflite, len, p);
        if (st == ACCEL_OK) st = accel_fb_string(&t, 1, &v);
        if (st != ACCEL_OK) return st;
        if (accel__edgetpu_view_eq(v, "edgetpu-custom-op")) {
            found = 1;
            code = k;
        }
    }
    if (!found) return ACCEL_E_UNSUPPORTED;
    opts.p = NULL;
    opts.len = 0;
    for (s = 0; s < nsub && !opts.p; s++) {
        accel_edgetpu_fbt sg;
        size_t ops;
        uint32_t nops, o;
        st = accel_fb_elem(tflite, len, subgraphs, s, &p);
        if (st == ACCEL_OK) st = accel_fb_table_at(&sg, tflite, len, p);
        if (st == ACCEL_OK) st = accel_fb_vector(&sg, 3, 4, &ops, &nops);
        if (st != ACCEL_OK) return st;
        for (o = 0; o < nops; o++) {
            uint64_t idx;
            st = accel_fb_elem(tflite, len, ops, o, &p);
            if (st == ACCEL_OK) st = accel_fb_table_at(&t, tflite, len, p);
            if (st == ACCEL_OK) st = accel_fb_scalar(&t, 0, 4, 0, &idx);
            if (st != ACCEL_OK) return st;
            if (idx != code) continue;
            st = accel_fb_bytes(&t, 5, &opts);
            if (st != ACCEL_OK) return st;
            if (!opts.p) return ACCEL_E_MALFORMED;
            break;
        }
    }
    if (!opts.p) return ACCEL_E_UNSUPPORTED;
    /* key "3" (a separate parameter-caching executable) is an old format libedgetpu refuses */
    st = accel__edgetpu_flex_find(opts.p, opts.len, "3", &v);
    if (st == ACCEL_OK) return ACCEL_E_UNSUPPORTED;
    if (st != ACCEL_E_EMPTY) return st;
    st = accel__edgetpu_flex_find(opts.p, opts.len, "4", &v);
    if (st == ACCEL_E_EMPTY) return ACCEL_E_MALFORMED;
    if (st != ACCEL_OK) return st;
    st = accel_edgetpu_package_init(m, v.p, v.len);
    if (st != ACCEL_OK) return st;
    m->custom_options = opts;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_package_find(const accel_edgetpu_package *m, int type,
                                               uint32_t *index)
{
    uint32_t i;
    if (!m || !index) return ACCEL_E_NULL;
    for (i = 0; i < m->n_executables; i++) {
        accel_edgetpu_exe e;
        accel_status st = accel_edgetpu_package_executable(m, i, &e);
        if (st != ACCEL_OK) return st;
        if (e.type == type) {
            *index = i;
            return ACCEL_OK;
        }
    }
    return ACCEL_E_EMPTY;
}

/* -------------------------------------------------------- @edgetpu.usb_wire: USB wire format */
ACCELDEF accel_status accel_edgetpu_encode_usb_header(uint32_t length, uint8_t tag, uint8_t out[8])
{
    if (!out) return ACCEL_E_NULL;
    if (tag > 0xFu) return ACCEL_E_ARG;
    accel_store_u32le(out, length);
    out[4] = tag;
    out[5] = out[6] = out[7] = 0;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_decode_usb_header(const uint8_t in[8], uint32_t *length,
                                                  uint8_t *tag)
{
    if (!in || !length || !tag) return ACCEL_E_NULL;
    if ((in[4] & 0xF0u) || in[5] || in[6] || in[7]) return ACCEL_E_MALFORMED;
    *length = accel_load_u32le(in);
    *tag = in[4];
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_decode_event(const uint8_t *in, size_t len,
                                                 accel_edgetpu_event *ev)
{
    if (!in || !ev) return ACCEL_E_NULL;
    if (len < ACCEL_EDGETPU_EVENT_BYTES) return ACCEL_E_TRUNCATED;
    if (len > ACCEL_EDGETPU_EVENT_BYTES) return ACCEL_E_TOO_LONG;
    ev->address = accel_load_u64le(in);
    ev->length = accel_load_u32le(in + 8);
    ev->tag = (uint8_t)(in[12] & 0xFu); /* libedgetpu keeps the low 4 bits */
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_encode_event(const accel_edgetpu_event *ev, uint8_t out[16])
{
    if (!ev || !out) return ACCEL_E_NULL;
    if (ev->tag > 0xFu) return ACCEL_E_ARG;
    accel_store_u64le(out, ev->address);
    accel_store_u32le(out + 8, ev->length);
    out[12] = ev->tag;
    out[13] = out[14] = out[15] = 0;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_decode_irq(const uint8_t *in, size_t len,
                                               accel_edgetpu_irq *irq)
{
    if (!in || !irq) return ACCEL_E_NULL;
    if (len < ACCEL_EDGETPU_IRQ_BYTES) return ACCEL_E_TRUNCATED;
    if (len > ACCEL_EDGETPU_IRQ_BYTES) return ACCEL_E_TOO_LONG;
    irq->raw = accel_load_u32le(in);
    irq->fatal = (int)(irq->raw & 1u);
    irq->top_level = (uint8_t)((irq->raw >> 1) & 0xFu);
    return ACCEL_OK;
}

/* -------------------------------------------------------- @edgetpu.usb: USB protocol */
ACCELDEF accel_status accel_edgetpu_usb_init(accel_edgetpu_usb *u, const accel_port *port,
                                             uint32_t max_chunk)
{
    if (!u || !port) return ACCEL_E_NULL;
    ACCEL_MEMSET(u, 0, sizeof *u);
    u->port = port;
    u->timeout_ms = ACCEL_EDGETPU_DEFAULT_TIMEOUT_MS;
    u->max_chunk = max_chunk ? max_chunk : ACCEL_EDGETPU_DEFAULT_CHUNK;
    return ACCEL_OK;
}

ACCELDEF void accel_edgetpu_usb_abort(accel_edgetpu_usb *u)
{
    if (!u) return;
    u->out_owed = 0;
    u->in_owed = 0;
}

static accel_status accel__edgetpu_csr(accel_edgetpu_usb *u, int in, uint8_t req,
                                       uint32_t offset, uint8_t *buf, uint16_t n)
{
    size_t done = 0;
    accel_status st;
    if (!u) return ACCEL_E_NULL;
    st = accel_port_usb_control(u->port,
                                (uint8_t)((in ? ACCEL_USB_DIR_IN : 0u) | ACCEL_USB_TYPE_VENDOR |
                                          ACCEL_USB_RECIP_DEVICE),
                                req, (uint16_t)(offset & 0xFFFFu), (uint16_t)(offset >> 16), buf, n,
                                u->timeout_ms, &done);
    if (st != ACCEL_OK) return st;
    return done == n ? ACCEL_OK : ACCEL_E_TRUNCATED;
}

ACCELDEF accel_status accel_edgetpu_csr_read32(accel_edgetpu_usb *u, uint32_t offset, uint32_t *v)
{
    uint8_t b[4];
    accel_status st;
    if (!v) return ACCEL_E_NULL;
    st = accel__edgetpu_csr(u, 1, ACCEL_EDGETPU_REQ_CSR32, offset, b, 4);
    if (st == ACCEL_OK) *v = accel_load_u32le(b);
    return st;
}

ACCELDEF accel_status accel_edgetpu_csr_write32(accel_edgetpu_usb *u, uint32_t offset, uint32_t v)
{
    uint8_t b[4];
    accel_store_u32le(b, v);
    return accel__edgetpu_csr(u, 0, ACCEL_EDGETPU_REQ_CSR32, offset, b, 4);
}

ACCELDEF accel_status accel_edgetpu_csr_read64(accel_edgetpu_usb *u, uint32_t offset, uint64_t *v)
{
    uint8_t b[8];
    accel_status st;
    if (!v) return ACCEL_E_NULL;
    st = accel__edgetpu_csr(u, 1, ACCEL_EDGETPU_REQ_CSR64, offset, b, 8);
    if (st == ACCEL_OK) *v = accel_load_u64le(b);
    return st;
}

ACCELDEF accel_status accel_edgetpu_csr_write64(accel_edgetpu_usb *u, uint32_t offset, uint64_t v)
{
    uint8_t b[8];
    accel_store_u64le(b, v);
    return accel__edgetpu_csr(u, 0, ACCEL_EDGETPU_REQ_CSR64, offset, b, 8);
}

ACCELDEF accel_status accel_edgetpu_usb_begin(accel_edgetpu_usb *u, uint8_t tag, uint32_t total)
{
    uint8_t h[8];
    size_t done = 0;
    accel_status st;
    if (!u) return ACCEL_E_NULL;
    if (tag > ACCEL_EDGETPU_TAG_PARAMETERS) return ACCEL_E_ARG; /* host sends tags 0..2 only */
    if (total == 0) return ACCEL_E_ZERO_LENGTH;
    if (u->out_owed || u->in_owed) return ACCEL_E_STATE;
    (void)accel_edgetpu_encode_usb_header(total, tag, h);
    st = accel_port_usb_bulk_out(u->port, ACCEL_EDGETPU_EP_OUT, h, sizeof h, u->timeout_ms, &done);
    if (st != ACCEL_OK) return st;
    if (done != sizeof h) return ACCEL_E_TRUNCATED;
    u->out_owed = total;
    u->out_tag = tag;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_usb_data(accel_edgetpu_usb *u, const uint8_t *data, size_t n)
{
    if (!u || (!data && n)) return ACCEL_E_NULL;
    if ((uint64_t)n > (uint64_t)u->out_owed) return ACCEL_E_TOO_LONG;
    if (u->in_owed) return ACCEL_E_STATE;
    while (n) {
        size_t part = n, done = 0;
        accel_status st;
        if ((uint64_t)part > (uint64_t)u->max_chunk) part = (size_t)u->max_chunk;
        st = accel_port_usb_bulk_out(u->port, ACCEL_EDGETPU_EP_OUT, data, part, u->timeout_ms,
                                     &done);
        if (done > part) done = part;
        u->out_owed -= (uint32_t)done; /* whatever went out is no longer owed */
        if (st != ACCEL_OK) return st;
        if (done != part) return ACCEL_E_TRUNCATED;
        data += part;
        n -= part;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_usb_send(accel_edgetpu_usb *u, uint8_t tag,
                                             const uint8_t *data, uint32_t len)
{
    accel_status st;
    if (!u || !data) return ACCEL_E_NULL;
    st = accel_edgetpu_usb_begin(u, tag, len);
    if (st == ACCEL_OK) st = accel_edgetpu_usb_data(u, data, (size_t)len);
    return st;
}

ACCELDEF accel_status accel_edgetpu_usb_read_output(accel_edgetpu_usb *u, uint8_t *buf,
                                                    uint32_t len)
{
    if (!u || !buf) return ACCEL_E_NULL;
    if (len == 0) return ACCEL_E_ZERO_LENGTH;
    if (u->out_owed) return ACCEL_E_STATE; /* a request is half sent */
    if (u->in_owed && u->in_len != len) return ACCEL_E_STATE;
    if (!u->in_owed) u->in_owed = len;
    u->in_len = len;
    while (u->in_owed) {
        size_t got = 0, want = (size_t)u->in_owed;
        accel_status st;
        if ((uint64_t)want > (uint64_t)u->max_chunk) want = (size_t)u->max_chunk;
        st = accel_port_usb_bulk_in(u->port, ACCEL_EDGETPU_EP_OUTPUT, buf + (len - u->in_owed),
                                    want, u->timeout_ms, &got);
        if (got > want) got = want;
        u->in_owed -= (uint32_t)got;
        if (st != ACCEL_OK) return st;
        if (got == 0) return ACCEL_E_TRUNCATED;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_usb_read_event(accel_edgetpu_usb *u, accel_edgetpu_event *ev)
{
    uint8_t b[ACCEL_EDGETPU_EVENT_BYTES];
    size_t got = 0;
    accel_status st;
    if (!u || !ev) return ACCEL_E_NULL;
    st = accel_port_usb_bulk_in(u->port, ACCEL_EDGETPU_EP_EVENT, b, sizeof b, u->timeout_ms, &got);
    if (st != ACCEL_OK) return st;
    return accel_edgetpu_decode_event(b, got, ev);
}

ACCELDEF accel_status accel_edgetpu_usb_read_irq(accel_edgetpu_usb *u, accel_edgetpu_irq *irq)
{
    uint8_t b[ACCEL_EDGETPU_IRQ_BYTES];
    size_t got = 0;
    accel_status st;
    if (!u || !irq) return ACCEL_E_NULL;
    st = accel_port_usb_bulk_in(u->port, ACCEL_EDGETPU_EP_IRQ, b, sizeof b, u->timeout_ms, &got);
    if (st != ACCEL_OK) return st;
    return accel_edgetpu_decode_irq(b, got, irq);
}

/* -------------------------------------------------------- @edgetpu.bringup: bring-up */
#define ACCEL__EDGETPU_R ACCEL_EDGETPU_OP_READ
#define ACCEL__EDGETPU_W ACCEL_EDGETPU_OP_WRITE
#define ACCEL__EDGETPU_M ACCEL_EDGETPU_OP_RMW
#define ACCEL__EDGETPU_P ACCEL_EDGETPU_OP_POLL
#define ACCEL__EDGETPU_T ACCEL_EDGETPU_OP_TEST
#define ACCEL__EDGETPU_ALL 0xFFFFFFFFUL /* with ACCEL_EDGETPU_SF_HI0: the whole 64-bit value */
#define ACCEL__EDGETPU_PT 1000u /* poll timeout, ms */

/* libedgetpu's USB open: BeagleTopLevelHandler Open / EnableReset / QuitReset /
 * EnableHardwareClockGate, UsbDriver::InitializeChip, RunController::DoRunControl(run),
 * interrupt enables (fatal, top-level 0-3, thermal, MBIST, PCIe/ABM). Matches
 * init_sequence_libedgetpu_usb.tsv transfer for transfer. Flag 0: Open saw rg_gated_gcb == 1;
 * flag 1: rg_force_sleep already 0b11 (EnableReset returns at once). */
static const accel_edgetpu_step accel__edgetpu_open_seq[] = {
    {ACCEL__EDGETPU_M, 32, 0, 0, 0, 0, ACCEL_EDGETPU_SCU_CTRL_0, 0x3F00u, 0},
    {ACCEL__EDGETPU_T, 32, 0, 0, 0, 0, ACCEL_EDGETPU_SCU_CTRL_2, 0xC0000UL, 0x40000UL},
    {ACCEL__EDGETPU_T, 32, 0, 1, 0, 0, ACCEL_EDGETPU_SCU_CTRL_3, 0xC00000UL, 0xC00000UL},
    {ACCEL__EDGETPU_M, 32, 2, 0, 0, 0, ACCEL_EDGETPU_SCU_CTRL_3, 0xC00000UL, 0xC00000UL},
    {ACCEL__EDGETPU_P, 32, 2, 0, 0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_SCU_CTRL_3, 0x300u, 0x200u},
    {ACCEL__EDGETPU_W, 32, 2, 0, 0, 0, ACCEL_EDGETPU_GCBB_CREDIT0, 0, 0xFu},
    {ACCEL__EDGETPU_W, 32, 2, 0, 0, 0, ACCEL_EDGETPU_GCBB_CREDIT0, 0, 0},
    /* QuitReset: rg_force_sleep 0b10 plus the clocks of the performance level */
    {ACCEL__EDGETPU_M, 32, 0, 0, ACCEL_EDGETPU_SF_CLOCKS, 0, ACCEL_EDGETPU_SCU_CTRL_3, 0xF0C00000UL,
     0x800000UL},
    {ACCEL__EDGETPU_P, 32, 0, 0, 0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_SCU_CTRL_3, 0x300u, 0},
    {ACCEL__EDGETPU_P, 64, 0, 0, ACCEL_EDGETPU_SF_HI0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_SCALAR_RUN_CONTROL,
     ACCEL__EDGETPU_ALL, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_IDLE_REGISTER, 0, 0x1u},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_TILECONFIG0, 0, 0x7Fu},
    {ACCEL__EDGETPU_P, 64, 0, 0, ACCEL_EDGETPU_SF_HI0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_TILECONFIG0,
     ACCEL__EDGETPU_ALL, 0x7Fu},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_DEEP_SLEEP, 0, 0x1E02u},
    /* EnableHardwareClockGate: rg_gated_gcb = 0b01 unless Open found it so */
    {ACCEL__EDGETPU_M, 32, 1, 0, 0, 0, ACCEL_EDGETPU_SCU_CTRL_2, 0xC0000UL, 0x40000UL},
    /* InitializeChip: e-fuse read, single-endpoint descriptors, outfeed chunk */
    {ACCEL__EDGETPU_R, 32, 0, 0, 0, 0, ACCEL_EDGETPU_OMC0_00, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_DESCR_EP, 0, 0xF0u},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_MULTI_BO_EP, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, ACCEL_EDGETPU_SF_CHUNK, 0, ACCEL_EDGETPU_OUTFEED_CHUNK_LENGTH, 0, 0},
    /* DoRunControl(kMoveToRun) */
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44018UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44158UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44198UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x441D8UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44218UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_TILECONFIG0, 0, 0x7Fu},
    {ACCEL__EDGETPU_P, 64, 0, 0, ACCEL_EDGETPU_SF_HI0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_TILECONFIG0,
     ACCEL__EDGETPU_ALL, 0x7Fu},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x400C0UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40150UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40110UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40250UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40298UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x402E0UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40328UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40190UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x401D0UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40210UL, 0, 1},
    /* interrupts */
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_FATAL_ERR_INT_CONTROL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C070UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C080UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C090UL, 0, 1},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C0A0UL, 0, 1},
    {ACCEL__EDGETPU_M, 32, 0, 0, 0, 0, ACCEL_EDGETPU_OMC0_D4, 0, 0x80000000UL}, /* thm_warn_en */
    {ACCEL__EDGETPU_M, 32, 0, 0, 0, 0, ACCEL_EDGETPU_RAMBIST_CTRL_1, 0x770000UL, 0}, /* MBIST */
    {ACCEL__EDGETPU_M, 32, 0, 0, 0, 0, ACCEL_EDGETPU_SCU_CTR_7, 0xF0000UL, 0},
    {ACCEL__EDGETPU_W, 32, 0, 0, 0, 0, ACCEL_EDGETPU_SLV_ABM_EN, 0, 1},
    {ACCEL__EDGETPU_W, 32, 0, 0, 0, 0, ACCEL_EDGETPU_MST_ABM_EN, 0, 1},
    {ACCEL__EDGETPU_W, 32, 0, 0, 0, 0, ACCEL_EDGETPU_SLV_ERR_RESP_ISR_MASK, 0, 3},
    {ACCEL__EDGETPU_W, 32, 0, 0, 0, 0, ACCEL_EDGETPU_MST_ERR_RESP_ISR_MASK, 0, 3},
    {ACCEL__EDGETPU_M, 32, 0, 0, 0, 0, ACCEL_EDGETPU_OMC0_D8, 0, 0x80000000UL}, /* sd_en */
};

/* libedgetpu's close: DisableAllInterrupts (top-level, fatal), DoRunControl(kMoveToHalt),
 * EnableReset (force sleep, wait for the sleeping power state, pulse gcbb_credit0). The
 * Beagle-specific thermal/MBIST/PCIe disables are not issued. */
static const accel_edgetpu_step accel__edgetpu_close_seq[] = {
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C070UL, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C080UL, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C090UL, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x4C0A0UL, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_FATAL_ERR_INT_CONTROL, 0, 0},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44018UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44158UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44198UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x441D8UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x44218UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, ACCEL_EDGETPU_TILECONFIG0, 0, 0x7Fu},
    {ACCEL__EDGETPU_P, 64, 0, 0, ACCEL_EDGETPU_SF_HI0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_TILECONFIG0,
     ACCEL__EDGETPU_ALL, 0x7Fu},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x400C0UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40150UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40110UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40250UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40298UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x402E0UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40328UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40190UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x401D0UL, 0, 2},
    {ACCEL__EDGETPU_W, 64, 0, 0, 0, 0, 0x40210UL, 0, 2},
    {ACCEL__EDGETPU_T, 32, 0, 1, 0, 0, ACCEL_EDGETPU_SCU_CTRL_3, 0xC00000UL, 0xC00000UL},
    {ACCEL__EDGETPU_M, 32, 2, 0, 0, 0, ACCEL_EDGETPU_SCU_CTRL_3, 0xC00000UL, 0xC00000UL},
    {ACCEL__EDGETPU_P, 32, 2, 0, 0, ACCEL__EDGETPU_PT, ACCEL_EDGETPU_SCU_CTRL_3, 0x300u, 0x200u},
    {ACCEL__EDGETPU_W, 32, 2, 0, 0, 0, ACCEL_EDGETPU_GCBB_CREDIT0, 0, 0xFu},
    {ACCEL__EDGETPU_W, 32, 2, 0, 0, 0, ACCEL_EDGETPU_GCBB_CREDIT0, 0, 0},
};

ACCELDEF const accel_edgetpu_step *accel_edgetpu_open_steps(uint32_t *n)
{
    if (n) *n = (uint32_t)(sizeof accel__edgetpu_open_seq / sizeof accel__edgetpu_open_seq[0]);
    return accel__edgetpu_open_seq;
}

ACCELDEF const accel_edgetpu_step *accel_edgetpu_close_steps(uint32_t *n)
{
    if (n) *n = (uint32_t)(sizeof accel__edgetpu_close_seq / sizeof accel__edgetpu_close_seq[0]);
    return accel__edgetpu_close_seq;
}

ACCELDEF accel_status accel_edgetpu_clock_bits(int perf, uint32_t *bits)
{
    /* gcb divider 3/2/1/0 = 63/125/250/500 MHz; over USB the 8051 runs at 500 MHz except at
     * Low, and AXI at 250 MHz only at Max (BeagleTopLevelHandler::QuitReset) */
    static const uint32_t tab[4] = {0xF0000000UL, 0x60000000UL, 0x50000000UL, 0x00000000UL};
    if (!bits) return ACCEL_E_NULL;
    if (perf < ACCEL_EDGETPU_PERF_LOW || perf > ACCEL_EDGETPU_PERF_MAX) return ACCEL_E_ARG;
    *bits = tab[perf];
    return ACCEL_OK;
}

static accel_status accel__edgetpu_rd(accel_edgetpu_usb *u, const accel_edgetpu_step *s,
                                      uint64_t *v)
{
    if (s->width == 64u) return accel_edgetpu_csr_read64(u, s->reg, v);
    {
        uint32_t w = 0;
        accel_status st = accel_edgetpu_csr_read32(u, s->reg, &w);
        *v = w;
        return st;
    }
}

static accel_status accel__edgetpu_wr(accel_edgetpu_usb *u, const accel_edgetpu_step *s,
                                      uint64_t v)
{
    if (s->width == 64u) return accel_edgetpu_csr_write64(u, s->reg, v);
    return accel_edgetpu_csr_write32(u, s->reg, (uint32_t)v);
}

ACCELDEF accel_status accel_edgetpu_seq_run(accel_edgetpu_usb *u, const accel_edgetpu_step *s,
                                            uint32_t n, accel_edgetpu_seq_ctx *ctx)
{
    uint32_t i;
    if (!u || !ctx || (!s && n)) return ACCEL_E_NULL;
    for (i = 0; i < n; i++) {
        const accel_edgetpu_step *st = &s[i];
        accel_status r = ACCEL_OK;
        uint64_t v = 0, set = st->value;
        int hi_ok;
        ctx->failed_step = i;
        if (st->width != 32u && st->width != 64u) return ACCEL_E_ARG;
        if (st->cond && st->cond <= 8u && (((unsigned)ctx->flags >> (unsigned)(st->cond - 1u)) & 1u))
            continue;
        if (st->sflags & ACCEL_EDGETPU_SF_CLOCKS) set |= ctx->clock_bits;
        if (st->sflags & ACCEL_EDGETPU_SF_CHUNK) set = ctx->outfeed_chunk;
        hi_ok = 1;
        switch (st->op) {
        case ACCEL_EDGETPU_OP_READ:
            r = accel__edgetpu_rd(u, st, &v);
            if (r == ACCEL_OK) ctx->last = v;
            break;
        case ACCEL_EDGETPU_OP_WRITE:
            r = accel__edgetpu_wr(u, st, set);
            break;
        case ACCEL_EDGETPU_OP_RMW:
            r = accel__edgetpu_rd(u, st, &v);
            if (r == ACCEL_OK) r = accel__edgetpu_wr(u, st, (v & ~(uint64_t)st->mask) | set);
            break;
        case ACCEL_EDGETPU_OP_TEST:
            r = accel__edgetpu_rd(u, st, &v);
            if (r == ACCEL_OK && st->flag < 8u) {
                unsigned bit = 1u << st->flag;
                if ((st->sflags & ACCEL_EDGETPU_SF_HI0) && (v >> 32) != 0) hi_ok = 0;
                if (hi_ok && (v & st->mask) == st->value) ctx->flags = (uint8_t)((unsigned)ctx->flags | bit);
                else ctx->flags = (uint8_t)((unsigned)ctx->flags & ~bit);
            }
            break;
        case ACCEL_EDGETPU_OP_POLL: {
            /* read, then 1 ms between reads, until the timeout's worth of waits has passed */
            uint32_t waited = 0;
            for (;;) {
                r = accel__edgetpu_rd(u, st, &v);
                hi_ok = !(st->sflags & ACCEL_EDGETPU_SF_HI0) || (v >> 32) == 0;
                if (r != ACCEL_OK || (hi_ok && (v & st->mask) == st->value)) break;
                if (waited >= st->timeout_ms) {
                    r = ACCEL_E_TIMEOUT;
                    break;
                }
                (void)accel_port_delay_ms(u->port, 1);
                waited++;
            }
            ctx->last = v;
            break;
        }
        default:
            return ACCEL_E_ARG;
        }
        if (r != ACCEL_OK) return r;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_open(accel_edgetpu_usb *u, int perf, int usb3)
{
    accel_edgetpu_seq_ctx ctx;
    accel_status st;
    if (!u) return ACCEL_E_NULL;
    ACCEL_MEMSET(&ctx, 0, sizeof ctx);
    st = accel_edgetpu_clock_bits(perf, &ctx.clock_bits);
    if (st != ACCEL_OK) return st;
    ctx.outfeed_chunk = usb3 ? 0x80u : 0x20u;
    return accel_edgetpu_seq_run(u, accel__edgetpu_open_seq,
                                 (uint32_t)(sizeof accel__edgetpu_open_seq /
                                            sizeof accel__edgetpu_open_seq[0]),
                                 &ctx);
}

ACCELDEF accel_status accel_edgetpu_close(accel_edgetpu_usb *u)
{
    accel_edgetpu_seq_ctx ctx;
    if (!u) return ACCEL_E_NULL;
    ACCEL_MEMSET(&ctx, 0, sizeof ctx);
    return accel_edgetpu_seq_run(u, accel__edgetpu_close_seq,
                                 (uint32_t)(sizeof accel__edgetpu_close_seq /
                                            sizeof accel__edgetpu_close_seq[0]),
                                 &ctx);
}

#ifndef ACCEL_EDGETPU_NO_MODEL
/* -------------------------------------------------------- @edgetpu.model: device model */
static int accel__edgetpu_model_find(const accel_edgetpu_model *d, uint32_t off)
{
    uint32_t i;
    for (i = 0; i < d->nregs; i++)
        if (d->reg_off[i] == off) return (int)i;
    return -1;
}

ACCELDEF uint64_t accel_edgetpu_model_reg(const accel_edgetpu_model *d, uint32_t off)
{
    int i;
    if (!d) return 0;
    i = accel__edgetpu_model_find(d, off);
    return i < 0 ? 0 : d->reg_val[i];
}

ACCELDEF accel_status accel_edgetpu_model_set_reg(accel_edgetpu_model *d, uint32_t off, uint64_t v)
{
    int i;
    if (!d) return ACCEL_E_NULL;
    i = accel__edgetpu_model_find(d, off);
    if (i < 0) {
        if (d->nregs >= ACCEL_EDGETPU_MODEL_REGS) return ACCEL_E_FULL;
        i = (int)d->nregs++;
        d->reg_off[i] = off;
    }
    d->reg_val[i] = v;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_model_init(accel_edgetpu_model *d)
{
    if (!d) return ACCEL_E_NULL;
    ACCEL_MEMSET(d, 0, sizeof *d);
    /* reset values (not in the trace, which lost its reads): chosen so the RMWs of the open
     * sequence write what libedgetpu wrote; the chip is asleep (force_sleep 0b11, state 2) */
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_SCU_CTRL_0, 0x000F3F59UL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_SCU_CTRL_2, 0x00110000UL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_SCU_CTRL_3, 0x50C5025CUL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_OMC0_00, 0x01000000UL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_OMC0_D4, 0x00000001UL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_OMC0_D8, 0);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_RAMBIST_CTRL_1, 0x0077007FUL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_SCU_CTR_7, 0x000F003FUL);
    (void)accel_edgetpu_model_set_reg(d, ACCEL_EDGETPU_SCALAR_RUN_CONTROL, 0);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_model_expect(accel_edgetpu_model *d, uint8_t kind, uint8_t tag,
                                               uint32_t len)
{
    if (!d) return ACCEL_E_NULL;
    if (kind < ACCEL_EDGETPU_MODEL_RECV || kind > ACCEL_EDGETPU_MODEL_IRQ) return ACCEL_E_ARG;
    if (d->pos) { /* drop what was consumed */
        uint32_t i;
        for (i = d->pos; i < d->nscript; i++) d->script[i - d->pos] = d->script[i];
        d->nscript -= d->pos;
        d->pos = 0;
    }
    if (d->nscript >= ACCEL_EDGETPU_MODEL_SCRIPT) return ACCEL_E_FULL;
    d->script[d->nscript].kind = kind;
    d->script[d->nscript].tag = tag;
    d->script[d->nscript].len = len;
    d->nscript++;
    return ACCEL_OK;
}

static void accel__edgetpu_model_violate(accel_edgetpu_model *d, uint32_t bit)
{
    d->violations |= bit;
    d->nviolations++;
}

/* Offer what the script says the device sends next: an output first, then (once it has been
 * read) events and interrupts. */
static void accel__edgetpu_model_pump(accel_edgetpu_model *d)
{
    while (d->pos < d->nscript && d->out_left == 0) {
        const accel_edgetpu_model_item *it = &d->script[d->pos];
        if (it->kind == ACCEL_EDGETPU_MODEL_RECV) return;
        if (it->kind == ACCEL_EDGETPU_MODEL_OUTPUT) {
            d->out_len = d->out_left = it->len;
        } else if (it->kind == ACCEL_EDGETPU_MODEL_EVENT) {
            if (d->event_ready) return;
            d->event_ready = 1;
            d->event_tag = it->tag;
        } else {
            if (d->irq_ready) return;
            d->irq_ready = 1;
            d->irq_raw = it->len;
        }
        d->pos++;
    }
}

static accel_status accel__edgetpu_model_control(void *user, uint8_t rt, uint8_t req,
                                               uint16_t value, uint16_t index, uint8_t *data,
                                               uint16_t length, uint32_t timeout_ms, size_t *done)
{
    accel_edgetpu_model *d = (accel_edgetpu_model *)user;
    uint32_t off = ((uint32_t)index << 16) | value;
    uint16_t want = req == ACCEL_EDGETPU_REQ_CSR64 ? 8u : 4u;
    (void)timeout_ms;
    *done = 0;
    if ((rt != 0x40u && rt != 0xC0u) || req > 1u || length != want || !data) {
        accel__edgetpu_model_violate(d, ACCEL_EDGETPU_MODEL_V_CSR);
        return ACCEL_E_STALL;
    }
    if (rt & 0x80u) {
        uint64_t v = accel_edgetpu_model_reg(d, off);
        if (want == 8u) accel_store_u64le(data, v);
        else accel_store_u32le(data, (uint32_t)v);
    } else {
        uint64_t v = want == 8u ? accel_load_u64le(data) : accel_load_u32le(data);
        if (off == ACCEL_EDGETPU_SCU_CTRL_3) {
            /* the power state follows rg_force_sleep at once */
            uint64_t fs = (v >> 22) & 3u;
            v &= ~(uint64_t)ACCEL_EDGETPU_SCU3_CUR_PWR_STATE_MASK;
            if (fs == 3u) v |= 0x200u;
        }
        if (accel_edgetpu_model_set_reg(d, off, v) != ACCEL_OK) {
            accel__edgetpu_model_violate(d, ACCEL_EDGETPU_MODEL_V_CSR);
            return ACCEL_E_STALL;
        }
    }
    *done = want;
    return ACCEL_OK;
}

static accel_status accel__edgetpu_model_bulk_out(void *user, uint8_t ep, const uint8_t *data,
                                                size_t len, uint32_t timeout_ms, size_t *done)
{
    accel_edgetpu_model *d = (accel_edgetpu_model *)user;
    (void)timeout_ms;
    *done = 0;
    if (ep != ACCEL_EDGETPU_EP_OUT || (!data && len)) return ACCEL_E_STALL;
    if (d->out_left) {
        accel__edgetpu_model_violate(d, ACCEL_EDGETPU_MODEL_V_ORDER);
        return ACCEL_E_STALL;
    }
    if (!d->in_data) {
        uint32_t n;
        uint8_t tag;
        if (len != ACCEL_EDGETPU_HEADER_BYTES || accel_edgetpu_decode_usb_header(data, &n, &tag) ||
            tag > ACCEL_EDGETPU_TAG_PARAMETERS || n == 0) {
            accel__edgetpu_model_violate(d, ACCEL_EDGETPU_MODEL_V_HEADER);
            return ACCEL_E_STALL;
        }
        d->in_data = 1;
        d->req_len = n;
        d->req_got = 0;
        d->req_tag = tag;
        *done = len;
        return ACCEL_OK;
    }
    if ((uint64_t)len > (uint64_t)(d->req_len - d->req_got)) {
        accel__edgetpu_model_violate(d, ACCEL_EDGETPU_MODEL_V_SIZE);
        return ACCEL_E_STALL;
    }
    if (d->req_tag == ACCEL_EDGETPU_TAG_INPUT) {
        size_t i;
        for (i = 0; i < len; i++) d->in_sum = (uint8_t)(d->in_sum + data[i]);
    }
    d->req_got += (uint32_t)len;
    *done = len;
    if (d->req_got == d->req_len) {
        d->in_data = 0;
        d->recv_bytes[d->req_tag] += d->req_len;
        d->recv_requests[d->req_tag]++;
        if (d->nscript) {
            const accel_edgetpu_model_item *it = d->pos < d->nscript ? &d->script[d->pos] : NULL;
            if (!it || it->kind != ACCEL_EDGETPU_MODEL_RECV || it->tag != d->req_tag ||
                it->len != d->req_len) {
                accel__edgetpu_model_violate(d, ACCEL_EDGETPU_MODEL_V_SCRIPT);
            } else {
                d->pos++;
                accel__edgetpu_model_pump(d);
            }
        }
    }
    return ACCEL_OK;
}

static accel_status accel__edgetpu_model_bulk_in(void *user, uint8_t ep, uint8_t *data, size_t len,
                                               uint32_t timeout_ms, size_t *done)
{
    accel_edgetpu_model *d = (accel_edgetpu_model *)user;
    (void)timeout_ms;
    *done = 0;
    if (!data) return ACCEL_E_STALL;
    if (ep == ACCEL_EDGETPU_EP_OUTPUT) {
        size_t n = len, i;
        if (!d->out_left) return ACCEL_E_TIMEOUT;
        if ((uint64_t)n > (uint64_t)d->out_left) n = (size_t)d->out_left;
        for (i = 0; i < n; i++)
            data[i] = (uint8_t)(d->in_sum + (uint8_t)(d->out_len - d->out_left + (uint32_t)i));
        d->out_left -= (uint32_t)n;
        *done = n;
        accel__edgetpu_model_pump(d);
        return ACCEL_OK;
    }
    if (ep == ACCEL_EDGETPU_EP_EVENT) {
        accel_edgetpu_event ev;
        if (!d->event_ready) return ACCEL_E_TIMEOUT;
        if (len < ACCEL_EDGETPU_EVENT_BYTES) return ACCEL_E_OVERFLOW; /* babble */
        ev.address = 0;
        ev.length = 0;
        ev.tag = d->event_tag;
        (void)accel_edgetpu_encode_event(&ev, data);
        d->event_ready = 0;
        *done = ACCEL_EDGETPU_EVENT_BYTES;
        accel__edgetpu_model_pump(d);
        return ACCEL_OK;
    }
    if (ep == ACCEL_EDGETPU_EP_IRQ) {
        if (!d->irq_ready) return ACCEL_E_TIMEOUT;
        if (len < ACCEL_EDGETPU_IRQ_BYTES) return ACCEL_E_OVERFLOW;
        accel_store_u32le(data, d->irq_raw);
        d->irq_ready = 0;
        *done = ACCEL_EDGETPU_IRQ_BYTES;
        accel__edgetpu_model_pump(d);
        return ACCEL_OK;
    }
    return ACCEL_E_STALL;
}

ACCELDEF accel_status accel_edgetpu_model_port(accel_edgetpu_model *d, accel_port *model)
{
    if (!d || !model) return ACCEL_E_NULL;
    model->user = d;
    model->usb_control = accel__edgetpu_model_control;
    model->usb_bulk_out = accel__edgetpu_model_bulk_out;
    model->usb_bulk_in = accel__edgetpu_model_bulk_in;
    return ACCEL_OK;
}
#endif /* ACCEL_EDGETPU_NO_MODEL */

/* -------------------------------------------------------- @edgetpu.driver: inference driver */
ACCELDEF accel_status accel_edgetpu_driver_init(accel_edgetpu_driver *d, const accel_port *port,
                                                uint32_t max_chunk)
{
    if (!d || !port) return ACCEL_E_NULL;
    ACCEL_MEMSET(d, 0, sizeof *d);
    return accel_edgetpu_usb_init(&d->usb, port, max_chunk);
}

ACCELDEF void accel_edgetpu_driver_reset_cache(accel_edgetpu_driver *d)
{
    if (!d) return;
    d->current_token = 0;
    d->ncached = 0;
}

/* Bytes per element of a layer data type (0: not a type the USB path converts). */
static unsigned accel__edgetpu_signed_width(int dt)
{
    if (dt == ACCEL_EDGETPU_SIGNED_FIXED_POINT8) return 1u;
    if (dt == ACCEL_EDGETPU_SIGNED_FIXED_POINT16) return 2u;
    if (dt == ACCEL_EDGETPU_SIGNED_FIXED_POINT32) return 4u;
    return 0u;
}

/* XOR 0x80 into the most significant (last, little-endian) byte of each element; pos is the
 * byte offset of buf[0] inside the layer. */
static void accel__edgetpu_flip(uint8_t *buf, size_t n, uint32_t pos, unsigned w)
{
    size_t i;
    if (!w) return;
    for (i = 0; i < n; i++)
        if ((uint32_t)(pos + (uint32_t)i) % w == w - 1u) buf[i] ^= 0x80u;
}

/* Fatal-interrupt check after a failed wait: read the interrupt endpoint briefly. */
static accel_status accel__edgetpu_check_fatal(accel_edgetpu_driver *d, accel_status st)
{
    accel_edgetpu_irq irq;
    uint32_t saved = d->usb.timeout_ms;
    accel_status r;
    if (st != ACCEL_E_TIMEOUT && st != ACCEL_E_STALL) return st;
    d->usb.timeout_ms = 10;
    r = accel_edgetpu_usb_read_irq(&d->usb, &irq);
    d->usb.timeout_ms = saved;
    if (r != ACCEL_OK) return st;
    d->irq_raw = irq.raw;
    if (!irq.fatal) return st;
    (void)accel_edgetpu_csr_read64(&d->usb, ACCEL_EDGETPU_HIB_ERROR_STATUS, &d->hib_error_status);
    (void)accel_edgetpu_csr_read64(&d->usb, ACCEL_EDGETPU_HIB_FIRST_ERROR_STATUS,
                                   &d->hib_first_error_status);
    return ACCEL_E_EDGETPU_FATAL;
}

/* Stream a bitstream with its field offsets linked, window by window through scratch. */
static accel_status accel__edgetpu_send_bits(accel_edgetpu_driver *d,
                                             const accel_edgetpu_bitstream *b,
                                             const accel_edgetpu_io *io)
{
    size_t pos = 0, len = b->bits.len;
    accel_status st = accel_edgetpu_usb_begin(&d->usb, ACCEL_EDGETPU_TAG_INSTRUCTIONS,
                                              (uint32_t)len);
    if (st != ACCEL_OK) return st;
    while (pos < len) {
        size_t n = len - pos;
        uint32_t k;
        if (n > io->scratch_len) n = io->scratch_len;
        ACCEL_MEMCPY(io->scratch, b->bits.p + pos, n);
        for (k = 0; k < b->n_field_offsets; k++) {
            accel_edgetpu_field_offset fo;
            uint64_t a;
            uint32_t v, bit;
            st = accel_edgetpu_bitstream_field_offset(b, k, &fo);
            if (st != ACCEL_OK) return st;
            a = d->base_addr[fo.desc & 3];
            v = fo.position ? (uint32_t)(a >> 32) : (uint32_t)a;
            /* the bits of this 32-bit field that fall inside the window */
            for (bit = 0; bit < 32u; bit++) {
                uint32_t at = fo.offset_bit + bit;
                size_t byte = (size_t)(at / 8u);
                uint8_t m = (uint8_t)(1u << (at % 8u));
                if (byte < pos || byte >= pos + n) continue;
                if ((v >> bit) & 1u) io->scratch[byte - pos] |= m;
                else io->scratch[byte - pos] = (uint8_t)(io->scratch[byte - pos] & ~m);
            }
        }
        st = accel_edgetpu_usb_data(&d->usb, io->scratch, n);
        if (st != ACCEL_OK) return st;
        pos += n;
    }
    return ACCEL_OK;
}

static accel_status accel__edgetpu_find_layer(const accel_edgetpu_exe *e, int out,
                                              accel_edgetpu_view name, uint32_t *idx,
                                              accel_edgetpu_layer *l)
{
    uint32_t i, n = out ? e->n_outputs : e->n_inputs;
    for (i = 0; i < n; i++) {
        accel_status st = accel_edgetpu_exe_layer(e, out, i, l);
        if (st != ACCEL_OK) return st;
        /* a view with a length always has its pointer (fb_str sets both or neither) */
        ACCEL_ASSERT((l->name.p || !l->name.len) && (name.p || !name.len));
        if (l->name.len == name.len &&
            (name.len == 0 || accel__edgetpu_memeq(l->name.p, name.p, name.len))) {
            *idx = i;
            return ACCEL_OK;
        }
    }
    /* one layer and an unnamed hint: that layer */
    if (n == 1 && name.len == 0) {
        *idx = 0;
        return accel_edgetpu_exe_layer(e, out, 0, l);
    }
    return ACCEL_E_MALFORMED;
}

static accel_status accel__edgetpu_hint_run(accel_edgetpu_driver *d, const accel_edgetpu_exe *e,
                                            const accel_edgetpu_hint *h,
                                            const accel_edgetpu_io *io)
{
    accel_status st;
    if (h->kind == ACCEL_EDGETPU_HINT_FENCE) return ACCEL_OK;
    if (h->kind == ACCEL_EDGETPU_HINT_INSTRUCTION) {
        accel_edgetpu_bitstream b;
        st = accel_edgetpu_exe_bitstream(e, h->instruction_chunk_index, &b);
        if (st != ACCEL_OK) return st;
        return accel__edgetpu_send_bits(d, &b, io);
    }
    if (h->kind == ACCEL_EDGETPU_HINT_INTERRUPT) {
        accel_edgetpu_event ev;
        st = accel_edgetpu_usb_read_event(&d->usb, &ev);
        if (st != ACCEL_OK) return accel__edgetpu_check_fatal(d, st);
        if (ev.tag != ACCEL_EDGETPU_TAG_INTERRUPT0 + (uint8_t)h->interrupt_type)
            return ACCEL_E_EDGETPU_EVENT;
        return ACCEL_OK;
    }
    /* DMA descriptor */
    if (h->desc == ACCEL_EDGETPU_DESC_PARAMETER) {
        if (h->direction != ACCEL_EDGETPU_INFEED) return ACCEL_E_MALFORMED;
        st = accel_edgetpu_usb_begin(&d->usb, ACCEL_EDGETPU_TAG_PARAMETERS, h->size_in_bytes);
        if (st == ACCEL_OK)
            st = accel_edgetpu_usb_data(&d->usb, e->parameters.p + h->offset_in_bytes,
                                        (size_t)h->size_in_bytes);
        return st;
    }
    if (h->desc == ACCEL_EDGETPU_DESC_INPUT || h->desc == ACCEL_EDGETPU_DESC_OUTPUT) {
        int out = h->desc == ACCEL_EDGETPU_DESC_OUTPUT;
        accel_edgetpu_layer l;
        uint32_t idx = 0;
        unsigned w;
        if (out != (h->direction == ACCEL_EDGETPU_OUTFEED)) return ACCEL_E_MALFORMED;
        st = accel__edgetpu_find_layer(e, out, h->name, &idx, &l);
        if (st != ACCEL_OK) return st;
        w = accel__edgetpu_signed_width(l.data_type);
        if (!out) {
            uint32_t done = 0;
            if (idx >= io->n_in || !io->in || !io->in_len || !io->in[idx]) return ACCEL_E_NULL;
            if ((uint64_t)h->offset_in_bytes + h->size_in_bytes > io->in_len[idx])
                return ACCEL_E_BUFFER_TOO_SMALL;
            st = accel_edgetpu_usb_begin(&d->usb, ACCEL_EDGETPU_TAG_INPUT, h->size_in_bytes);
            if (st != ACCEL_OK) return st;
            if (!w)
                return accel_edgetpu_usb_data(&d->usb, io->in[idx] + h->offset_in_bytes,
                                              (size_t)h->size_in_bytes);
            while (done < h->size_in_bytes) {
                size_t n = (size_t)(h->size_in_bytes - done);
                if (n > io->scratch_len) n = io->scratch_len;
                ACCEL_MEMCPY(io->scratch, io->in[idx] + h->offset_in_bytes + done, n);
                accel__edgetpu_flip(io->scratch, n, h->offset_in_bytes + done, w);
                st = accel_edgetpu_usb_data(&d->usb, io->scratch, n);
                if (st != ACCEL_OK) return st;
                done += (uint32_t)n;
            }
            return ACCEL_OK;
        }
        if (idx >= io->n_out || !io->out || !io->out_len || !io->out[idx]) return ACCEL_E_NULL;
        if ((uint64_t)h->offset_in_bytes + h->size_in_bytes > io->out_len[idx])
            return ACCEL_E_BUFFER_TOO_SMALL;
        st = accel_edgetpu_usb_read_output(&d->usb, io->out[idx] + h->offset_in_bytes,
                                           h->size_in_bytes);
        if (st != ACCEL_OK) return accel__edgetpu_check_fatal(d, st);
        accel__edgetpu_flip(io->out[idx] + h->offset_in_bytes, (size_t)h->size_in_bytes,
                            h->offset_in_bytes, w);
        return ACCEL_OK;
    }
    return ACCEL_E_UNSUPPORTED; /* scratch DMA over USB */
}

ACCELDEF accel_status accel_edgetpu_exe_run(accel_edgetpu_driver *d, const accel_edgetpu_exe *e,
                                            const accel_edgetpu_io *io)
{
    uint32_t i;
    if (!d || !e || !io || !io->scratch) return ACCEL_E_NULL;
    if (io->scratch_len < ACCEL_EDGETPU_MIN_SCRATCH) return ACCEL_E_BUFFER_TOO_SMALL;
    if (!e->has_dma_hints || !e->fully_deterministic) return ACCEL_E_UNSUPPORTED;
    for (i = 0; i < e->n_hints; i++) {
        accel_edgetpu_hint h;
        accel_status st = accel_edgetpu_exe_hint(e, i, &h);
        if (st == ACCEL_OK) st = accel__edgetpu_hint_run(d, e, &h, io);
        if (st != ACCEL_OK) return st;
    }
    d->exe_runs++;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_invoke(accel_edgetpu_driver *d, const accel_edgetpu_package *m,
                                           const accel_edgetpu_io *io, int *ran_pc)
{
    accel_edgetpu_exe main_exe, pc;
    uint32_t pc_idx = 0, main_idx = 0;
    int has_pc;
    accel_status st;
    if (ran_pc) *ran_pc = 0;
    if (!d || !m || !io) return ACCEL_E_NULL;
    has_pc = accel_edgetpu_package_find(m, ACCEL_EDGETPU_PARAMETER_CACHING, &pc_idx) == ACCEL_OK;
    st = accel_edgetpu_package_find(m, ACCEL_EDGETPU_EXECUTION_ONLY, &main_idx);
    if (st == ACCEL_E_EMPTY) st = accel_edgetpu_package_find(m, ACCEL_EDGETPU_STAND_ALONE, &main_idx);
    if (st != ACCEL_OK) return st == ACCEL_E_EMPTY ? ACCEL_E_MALFORMED : st;
    st = accel_edgetpu_package_executable(m, main_idx, &main_exe);
    if (st != ACCEL_OK) return st;
    if (main_exe.parameter_caching_token == 0 || main_exe.parameter_caching_token != d->current_token)
        accel_edgetpu_driver_reset_cache(d);
    if (has_pc) {
        int cached = 0;
        uint32_t i;
        st = accel_edgetpu_package_executable(m, pc_idx, &pc);
        if (st != ACCEL_OK) return st;
        if (pc.parameter_caching_token == 0) return ACCEL_E_EDGETPU_NO_TOKEN;
        for (i = 0; i < d->ncached; i++)
            if (d->cached[i] == (const void *)m->package.p) cached = 1;
        if (!cached) {
            d->current_token = pc.parameter_caching_token;
            if (d->ncached >= ACCEL_EDGETPU_MAX_CACHED) {
                /* a full set starts over: the oldest entries may be overwritten on chip */
                accel_edgetpu_driver_reset_cache(d);
                d->current_token = pc.parameter_caching_token;
            }
            st = accel_edgetpu_exe_run(d, &pc, io);
            if (st != ACCEL_OK) {
                accel_edgetpu_driver_reset_cache(d); /* unknown what reached the chip */
                return st;
            }
            d->cached[d->ncached++] = (const void *)m->package.p;
            d->pc_runs++;
            if (ran_pc) *ran_pc = 1;
        }
    }
    return accel_edgetpu_exe_run(d, &main_exe, io);
}

#ifndef ACCEL_EDGETPU_NO_MODEL
ACCELDEF accel_status accel_edgetpu_model_expect_exe(accel_edgetpu_model *dv,
                                                   const accel_edgetpu_exe *e)
{
    uint32_t i;
    if (!dv || !e) return ACCEL_E_NULL;
    for (i = 0; i < e->n_hints; i++) {
        accel_edgetpu_hint h;
        accel_status st = accel_edgetpu_exe_hint(e, i, &h);
        if (st != ACCEL_OK) return st;
        if (h.kind == ACCEL_EDGETPU_HINT_INSTRUCTION) {
            accel_edgetpu_bitstream b;
            st = accel_edgetpu_exe_bitstream(e, h.instruction_chunk_index, &b);
            if (st == ACCEL_OK)
                st = accel_edgetpu_model_expect(dv, ACCEL_EDGETPU_MODEL_RECV,
                                              ACCEL_EDGETPU_TAG_INSTRUCTIONS, (uint32_t)b.bits.len);
        } else if (h.kind == ACCEL_EDGETPU_HINT_DMA) {
            if (h.desc == ACCEL_EDGETPU_DESC_OUTPUT)
                st = accel_edgetpu_model_expect(dv, ACCEL_EDGETPU_MODEL_OUTPUT, 0, h.size_in_bytes);
            else
                st = accel_edgetpu_model_expect(dv, ACCEL_EDGETPU_MODEL_RECV,
                                              h.desc == ACCEL_EDGETPU_DESC_PARAMETER
                                                  ? ACCEL_EDGETPU_TAG_PARAMETERS
                                                  : ACCEL_EDGETPU_TAG_INPUT,
                                              h.size_in_bytes);
        } else if (h.kind == ACCEL_EDGETPU_HINT_INTERRUPT) {
            st = accel_edgetpu_model_expect(dv, ACCEL_EDGETPU_MODEL_EVENT,
                                          (uint8_t)(ACCEL_EDGETPU_TAG_INTERRUPT0 +
                                                    (unsigned)h.interrupt_type),
                                          0);
        }
        if (st != ACCEL_OK) return st;
    }
    return ACCEL_OK;
}
#endif

/* -------------------------------------------------------- @edgetpu.dfu: DFU */
#define ACCEL__EDGETPU_DFU_OUT 0x21u /* host to device, class, interface */
#define ACCEL__EDGETPU_DFU_IN 0xA1u

ACCELDEF accel_status accel_edgetpu_decode_dfu_status(const uint8_t *in, size_t len,
                                                      accel_edgetpu_dfu_status *out)
{
    if (!in || !out) return ACCEL_E_NULL;
    if (len < 6u) return ACCEL_E_TRUNCATED;
    out->status = in[0];
    out->poll_timeout = (uint32_t)in[1] | ((uint32_t)in[2] << 8) | ((uint32_t)in[3] << 16);
    out->state = in[4];
    return ACCEL_OK;
}

static accel_status accel__edgetpu_dfu_getstatus(const accel_port *port, uint16_t iface,
                                                 uint32_t timeout_ms, accel_edgetpu_dfu_status *s)
{
    uint8_t b[6];
    size_t done = 0;
    accel_status st = accel_port_usb_control(port, ACCEL__EDGETPU_DFU_IN, ACCEL_EDGETPU_DFU_GETSTATUS, 0,
                                             iface, b, 6, timeout_ms, &done);
    if (st != ACCEL_OK) return st;
    return accel_edgetpu_decode_dfu_status(b, done, s);
}

ACCELDEF accel_status accel_edgetpu_dfu_download(const accel_port *port, uint16_t iface,
                                                 uint16_t transfer_size, const uint8_t *image,
                                                 size_t len, uint32_t timeout_ms,
                                                 accel_edgetpu_dfu_status *out)
{
    size_t pos = 0;
    uint16_t block = 0;
    accel_edgetpu_dfu_status s;
    if (!port || !image) return ACCEL_E_NULL;
    if (len == 0 || transfer_size == 0) return ACCEL_E_ZERO_LENGTH;
    ACCEL_MEMSET(&s, 0, sizeof s);
    for (;;) {
        size_t n = len - pos, done = 0;
        uint32_t polls = 0;
        accel_status st;
        if (n > transfer_size) n = transfer_size;
        st = accel_port_usb_control(port, ACCEL__EDGETPU_DFU_OUT, ACCEL_EDGETPU_DFU_DNLOAD, block, iface,
                                    (uint8_t *)(uintptr_t)(image + pos), (uint16_t)n, timeout_ms,
                                    &done);
        if (st == ACCEL_OK && done != n) st = ACCEL_E_TRUNCATED;
        if (st != ACCEL_OK) return st;
        /* GETSTATUS; while busy, wait what the device asks and ask again (bounded) */
        for (;;) {
            st = accel__edgetpu_dfu_getstatus(port, iface, timeout_ms, &s);
            if (out) { /* field by field: a struct copy may become a memcpy call */
                out->status = s.status;
                out->poll_timeout = s.poll_timeout;
                out->state = s.state;
            }
            if (st != ACCEL_OK) return st;
            if (s.status != 0) return ACCEL_E_EDGETPU_DFU;
            if (s.state != ACCEL_EDGETPU_DFU_DNBUSY && s.state != ACCEL_EDGETPU_DFU_MANIFEST_SYNC &&
                s.state != ACCEL_EDGETPU_DFU_MANIFEST)
                break;
            if (++polls > 1000u) return ACCEL_E_TIMEOUT;
            (void)accel_port_delay_ms(port, s.poll_timeout);
        }
        if (n == 0) {
            /* the zero-length block ends the download: idle (or waiting for reset) */
            if (s.state == ACCEL_EDGETPU_DFU_IDLE || s.state == ACCEL_EDGETPU_DFU_MANIFEST_WAIT_RESET)
                return ACCEL_OK;
            return ACCEL_E_EDGETPU_DFU;
        }
        if (s.state != ACCEL_EDGETPU_DFU_DNLOAD_IDLE) return ACCEL_E_EDGETPU_DFU;
        pos += n;
        block++; /* wraps at 65536 blocks, as in libedgetpu */
    }
}

ACCELDEF accel_status accel_edgetpu_dfu_verify_scratch_size(uint16_t transfer_size, size_t *bytes)
{
    if (!bytes) return ACCEL_E_NULL;
    *bytes = 0;
    if (transfer_size == 0) return ACCEL_E_ZERO_LENGTH;
    *bytes = transfer_size;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_edgetpu_dfu_verify(const accel_port *port, uint16_t iface,
                                               uint16_t transfer_size, const uint8_t *image,
                                               size_t len, uint8_t *scratch, size_t scratch_len,
                                               uint32_t timeout_ms)
{
    size_t pos = 0;
    uint16_t block = 0;
    if (!port || !image || !scratch) return ACCEL_E_NULL;
    if (transfer_size == 0) return ACCEL_E_ZERO_LENGTH;
    if (scratch_len < transfer_size) return ACCEL_E_BUFFER_TOO_SMALL;
    for (;;) {
        size_t got = 0, cmp;
        accel_status st = accel_port_usb_control(port, ACCEL__EDGETPU_DFU_IN, ACCEL_EDGETPU_DFU_UPLOAD,
                                                 block, iface, scratch, transfer_size, timeout_ms,
                                                 &got);
        if (st != ACCEL_OK) return st;
        if (got > transfer_size) got = transfer_size;
        cmp = pos < len ? len - pos : 0;
        if (cmp > got) cmp = got;
        if (cmp && !accel__edgetpu_memeq(scratch, image + pos, cmp)) return ACCEL_E_EDGETPU_VERIFY;
        pos += got;
        if (got < transfer_size) break; /* a short block ends the upload */
        /* the 16-bit block number would wrap: a device that never ends its upload */
        block = (uint16_t)(block + 1u);
        /* cppcheck-suppress knownConditionTrueFalse ; it wraps after 65535 full blocks */
        if (block == 0) return ACCEL_E_TOO_LONG;
    }
    return pos >= len ? ACCEL_OK : ACCEL_E_EDGETPU_VERIFY;
}

ACCELDEF accel_status accel_edgetpu_dfu_detach(const accel_port *port, uint16_t iface,
                                               uint16_t detach_timeout_ms, uint32_t timeout_ms)
{
    size_t done = 0;
    if (!port) return ACCEL_E_NULL;
    return accel_port_usb_control(port, ACCEL__EDGETPU_DFU_OUT, ACCEL_EDGETPU_DFU_DETACH,
                                  detach_timeout_ms, iface, NULL, 0, timeout_ms, &done);
}

ACCELDEF accel_status accel_edgetpu_dfu_transfer_size(const uint8_t *config, size_t len,
                                                      uint16_t *size)
{
    size_t pos = 0;
    if (!config || !size) return ACCEL_E_NULL;
    while (pos + 2u <= len) {
        uint8_t blen = config[pos], type = config[pos + 1u];
        if (blen < 2u || blen > len - pos) return ACCEL_E_MALFORMED;
        if (type == 0x21u) {
            if (blen < 7u) return ACCEL_E_MALFORMED;
            *size = accel_load_u16le(config + pos + 5u);
            return *size ? ACCEL_OK : ACCEL_E_MALFORMED;
        }
        pos += blen;
    }
    return ACCEL_E_EMPTY;
}

#ifndef ACCEL_EDGETPU_NO_MODEL
ACCELDEF accel_status accel_edgetpu_dfu_model_init(accel_edgetpu_dfu_model *d, uint8_t *mem, size_t cap)
{
    if (!d || !mem) return ACCEL_E_NULL;
    ACCEL_MEMSET(d, 0, sizeof *d);
    d->mem = mem;
    d->cap = cap;
    d->state = ACCEL_EDGETPU_DFU_IDLE;
    return ACCEL_OK;
}

static accel_status accel__edgetpu_dfu_model_control(void *user, uint8_t rt, uint8_t req,
                                                   uint16_t value, uint16_t index, uint8_t *data,
                                                   uint16_t length, uint32_t timeout_ms,
                                                   size_t *done)
{
    accel_edgetpu_dfu_model *d = (accel_edgetpu_dfu_model *)user;
    (void)index;
    (void)timeout_ms;
    *done = 0;
    if (rt == ACCEL__EDGETPU_DFU_OUT && req == ACCEL_EDGETPU_DFU_DNLOAD) {
        d->dnloads++;
        if ((d->state != ACCEL_EDGETPU_DFU_IDLE && d->state != ACCEL_EDGETPU_DFU_DNLOAD_IDLE) ||
            value != d->next_block || (length && !data)) {
            d->state = ACCEL_EDGETPU_DFU_ERROR;
            d->status = 0x0F; /* errSTALLEDPKT */
            return ACCEL_E_STALL;
        }
        if (length == 0) {
            d->state = ACCEL_EDGETPU_DFU_MANIFEST_SYNC;
            d->manifested = 1;
            return ACCEL_OK;
        }
        if (length > d->cap - d->len) {
            d->state = ACCEL_EDGETPU_DFU_ERROR;
            d->status = 0x08; /* errADDRESS */
            *done = length;
            return ACCEL_OK;
        }
        ACCEL_MEMCPY(d->mem + d->len, data, length);
        d->len += length;
        d->next_block++;
        d->busy_left = d->busy_polls;
        d->state = ACCEL_EDGETPU_DFU_DNBUSY;
        *done = length;
        return ACCEL_OK;
    }
    if (rt == ACCEL__EDGETPU_DFU_IN && req == ACCEL_EDGETPU_DFU_GETSTATUS && length >= 6u && data) {
        d->getstatus++;
        if (d->state == ACCEL_EDGETPU_DFU_DNBUSY && d->busy_left == 0)
            d->state = ACCEL_EDGETPU_DFU_DNLOAD_IDLE;
        else if (d->state == ACCEL_EDGETPU_DFU_DNBUSY)
            d->busy_left--;
        else if (d->state == ACCEL_EDGETPU_DFU_MANIFEST_SYNC)
            d->state = ACCEL_EDGETPU_DFU_IDLE;
        data[0] = d->status;
        data[1] = (uint8_t)(d->poll_ms & 0xFFu);
        data[2] = (uint8_t)((d->poll_ms >> 8) & 0xFFu);
        data[3] = (uint8_t)((d->poll_ms >> 16) & 0xFFu);
        data[4] = d->state;
        data[5] = 0;
        *done = 6;
        return ACCEL_OK;
    }
    if (rt == ACCEL__EDGETPU_DFU_IN && req == ACCEL_EDGETPU_DFU_UPLOAD && data) {
        size_t off = (size_t)value * length, n = 0;
        d->uploads++;
        if (off < d->len) n = d->len - off;
        if (n > length) n = length;
        if (n) ACCEL_MEMCPY(data, d->mem + off, n);
        *done = n;
        return ACCEL_OK;
    }
    if (rt == ACCEL__EDGETPU_DFU_OUT && req == ACCEL_EDGETPU_DFU_DETACH) {
        d->detached = 1;
        return ACCEL_OK;
    }
    return ACCEL_E_STALL;
}

ACCELDEF accel_status accel_edgetpu_dfu_model_port(accel_edgetpu_dfu_model *d, accel_port *model)
{
    if (!d || !model) return ACCEL_E_NULL;
    model->user = d;
    model->usb_control = accel__edgetpu_dfu_model_control;
    return ACCEL_OK;
}
#endif
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_EDGETPU */

/* ============================================================================================
 * SECTION: refsi (implementation) @refsi
 * ============================================================================================ */
#ifndef ACCEL_NO_REFSI
#ifdef __cplusplus
extern "C" {
#endif
/* -------------------------------------------------------- @refsi.builder: builder (wire format) */
#define ACCEL__REFSI_HDR_FIXED 0xC0000000UL

static uint64_t accel__refsi_header(unsigned opcode, size_t chunks, uint32_t inl)
{
    return (uint64_t)ACCEL__REFSI_HDR_FIXED | ((uint64_t)opcode << 8) |
           ((uint64_t)(chunks * 2u) << 16) | ((uint64_t)inl << 32);
}

/* Bits of the inline chunk each opcode uses; the rest must be zero (register opcodes use all
 * 32 bits and check the index separately). */
static uint32_t accel__refsi_inline_mask(unsigned op)
{
    switch (op) {
    case ACCEL_REFSI_OP_RUN_KERNEL_SLICE: return 0xFFu;
    case ACCEL_REFSI_OP_RUN_INSTANCES: return 0x7FFu;
    case ACCEL_REFSI_OP_SYNC_CACHE: return ACCEL_REFSI_CACHE_DCACHE | ACCEL_REFSI_CACHE_ICACHE;
    case ACCEL_REFSI_OP_WRITE_REG64:
    case ACCEL_REFSI_OP_LOAD_REG64:
    case ACCEL_REFSI_OP_STORE_REG64:
    case ACCEL_REFSI_OP_STORE_IMM64:
    case ACCEL_REFSI_OP_COPY_MEM64: return 0xFFFFFFFFUL;
    default: return 0; /* NOP, FINISH */
    }
}

/* Write header + payload at once, or nothing. */
static accel_status accel__refsi_put(accel_refsi_builder *b, unsigned opcode, uint32_t inl,
                                     const uint64_t *payload, size_t chunks)
{
    size_t i;
    if (!b || !b->buf) return ACCEL_E_NULL;
    if (b->len > b->cap || (b->cap - b->len) / 8u < chunks + 1u) return ACCEL_E_FULL;
    accel_store_u64le(b->buf + b->len, accel__refsi_header(opcode, chunks, inl));
    for (i = 0; i < chunks; i++) accel_store_u64le(b->buf + b->len + 8u * (i + 1u), payload[i]);
    b->len += 8u * (chunks + 1u);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_refsi_builder_init(accel_refsi_builder *b, void *buf, size_t cap)
{
    if (!b || (!buf && cap)) return ACCEL_E_NULL;
    b->buf = (uint8_t *)buf;
    b->cap = cap;
    b->len = 0;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_refsi_emit_nop(accel_refsi_builder *b, const uint8_t *payload_le,
                                           size_t chunks)
{
    if (!b || !b->buf || (!payload_le && chunks)) return ACCEL_E_NULL;
    if (chunks > ACCEL_REFSI_MAX_PAYLOAD) return ACCEL_E_TOO_LONG;
    if (b->len > b->cap || (b->cap - b->len) / 8u < chunks + 1u) return ACCEL_E_FULL;
    accel_store_u64le(b->buf + b->len, accel__refsi_header(ACCEL_REFSI_OP_NOP, chunks, 0));
    if (chunks) ACCEL_MEMCPY(b->buf + b->len + 8u, payload_le, chunks * 8u);
    b->len += 8u * (chunks + 1u);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_refsi_emit_finish(accel_refsi_builder *b)
{
    return accel__refsi_put(b, ACCEL_REFSI_OP_FINISH, 0, NULL, 0);
}

static accel_status accel__refsi_emit_reg(accel_refsi_builder *b, unsigned op, uint32_t reg,
                                          uint64_t v)
{
    if (reg >= ACCEL_REFSI_NUM_REGS) return ACCEL_E_REFSI_REG;
    return accel__refsi_put(b, op, reg, &v, 1);
}

ACCELDEF accel_status accel_refsi_emit_write_reg64(accel_refsi_builder *b, uint32_t reg,
                                                   uint64_t value)
{
    return accel__refsi_emit_reg(b, ACCEL_REFSI_OP_WRITE_REG64, reg, value);
}
ACCELDEF accel_status accel_refsi_emit_load_reg64(accel_refsi_builder *b, uint32_t reg,
                                                  uint64_t src_addr)
{
    return accel__refsi_emit_reg(b, ACCEL_REFSI_OP_LOAD_REG64, reg, src_addr);
}
ACCELDEF accel_status accel_refsi_emit_store_reg64(accel_refsi_builder *b, uint32_t reg,
                                                   uint64_t dst_addr)
{
    return accel__refsi_emit_reg(b, ACCEL_REFSI_OP_STORE_REG64, reg, dst_addr);
}

ACCELDEF accel_status accel_refsi_emit_store_imm64(accel_refsi_builder *b, uint64_t dst_addr,
                                                   uint64_t value)
{
    if (dst_addr > 0xFFFFFFFFUL) return ACCEL_E_REFSI_ADDR32;
    return accel__refsi_put(b, ACCEL_REFSI_OP_STORE_IMM64, (uint32_t)dst_addr, &value, 1);
}

ACCELDEF accel_status accel_refsi_emit_copy_mem64(accel_refsi_builder *b, uint32_t count,
                                                  uint64_t src_addr, uint64_t dst_addr,
                                                  uint64_t unit)
{
    uint64_t p[3];
    if (src_addr & 7u) return ACCEL_E_REFSI_SRC_ALIGN;
    p[0] = src_addr;
    p[1] = dst_addr;
    p[2] = unit;
    return accel__refsi_put(b, ACCEL_REFSI_OP_COPY_MEM64, count, p, 3);
}

ACCELDEF accel_status accel_refsi_emit_run_kernel_slice(accel_refsi_builder *b,
                                                        uint32_t max_harts, uint64_t instances,
                                                        uint64_t slice_id)
{
    uint64_t p[2];
    if (max_harts > 0xFFu) return ACCEL_E_REFSI_MAX_HARTS;
    p[0] = instances;
    p[1] = slice_id;
    return accel__refsi_put(b, ACCEL_REFSI_OP_RUN_KERNEL_SLICE, max_harts, p, 2);
}

ACCELDEF accel_status accel_refsi_emit_run_instances(accel_refsi_builder *b, uint32_t max_harts,
                                                     uint64_t instances, const uint64_t *args,
                                                     uint32_t nargs)
{
    uint64_t p[1 + ACCEL_REFSI_MAX_ARGS];
    uint32_t i;
    if (!args && nargs) return ACCEL_E_NULL;
    if (nargs > ACCEL_REFSI_MAX_ARGS) return ACCEL_E_REFSI_NARGS;
    if (max_harts > 0xFFu) return ACCEL_E_REFSI_MAX_HARTS;
    p[0] = instances;
    for (i = 0; i < nargs; i++) p[1u + i] = args[i];
    return accel__refsi_put(b, ACCEL_REFSI_OP_RUN_INSTANCES, max_harts | (nargs << 8), p,
                            1u + (size_t)nargs);
}

ACCELDEF accel_status accel_refsi_emit_sync_cache(accel_refsi_builder *b, uint32_t flags)
{
    if (flags & ~accel__refsi_inline_mask(ACCEL_REFSI_OP_SYNC_CACHE))
        return ACCEL_E_REFSI_CACHE_FLAGS;
    return accel__refsi_put(b, ACCEL_REFSI_OP_SYNC_CACHE, flags, NULL, 0);
}

ACCELDEF accel_status accel_refsi_emit(accel_refsi_builder *b, const accel_refsi_cmd *c)
{
    if (!c) return ACCEL_E_NULL;
    switch (c->opcode) {
    case ACCEL_REFSI_OP_NOP: return accel_refsi_emit_nop(b, c->payload, c->payload_chunks);
    case ACCEL_REFSI_OP_FINISH: return accel_refsi_emit_finish(b);
    case ACCEL_REFSI_OP_WRITE_REG64: return accel_refsi_emit_write_reg64(b, c->reg, c->value);
    case ACCEL_REFSI_OP_LOAD_REG64: return accel_refsi_emit_load_reg64(b, c->reg, c->addr);
    case ACCEL_REFSI_OP_STORE_REG64: return accel_refsi_emit_store_reg64(b, c->reg, c->addr);
    case ACCEL_REFSI_OP_STORE_IMM64: return accel_refsi_emit_store_imm64(b, c->addr, c->value);
    case ACCEL_REFSI_OP_COPY_MEM64:
        return accel_refsi_emit_copy_mem64(b, c->count, c->src, c->dst, c->unit);
    case ACCEL_REFSI_OP_RUN_KERNEL_SLICE:
        return accel_refsi_emit_run_kernel_slice(b, c->max_harts, c->instances, c->slice_id);
    case ACCEL_REFSI_OP_RUN_INSTANCES:
        return accel_refsi_emit_run_instances(b, c->max_harts, c->instances, c->args, c->nargs);
    case ACCEL_REFSI_OP_SYNC_CACHE: return accel_refsi_emit_sync_cache(b, c->flags);
    default: return ACCEL_E_REFSI_OPCODE;
    }
}

/* -------------------------------------------------------- @refsi.decoder: decoder / validator */
ACCELDEF accel_status accel_refsi_iter_init(accel_refsi_iter *it, const void *buf, size_t len)
{
    if (!it || (!buf && len)) return ACCEL_E_NULL;
    it->buf = (const uint8_t *)buf;
    it->len = len;
    it->pos = 0;
    it->index = 0;
    it->err = ACCEL_OK;
    it->done = 0;
    return ACCEL_OK;
}

/* Payload chunks an opcode must carry (RUN_INSTANCES: NUM_ARGS + 1); -1 for NOP (any). */
static long accel__refsi_payload_for(unsigned op, uint32_t inl)
{
    switch (op) {
    case ACCEL_REFSI_OP_FINISH:
    case ACCEL_REFSI_OP_SYNC_CACHE: return 0;
    case ACCEL_REFSI_OP_WRITE_REG64:
    case ACCEL_REFSI_OP_LOAD_REG64:
    case ACCEL_REFSI_OP_STORE_REG64:
    case ACCEL_REFSI_OP_STORE_IMM64: return 1;
    case ACCEL_REFSI_OP_COPY_MEM64: return 3;
    case ACCEL_REFSI_OP_RUN_KERNEL_SLICE: return 2;
    case ACCEL_REFSI_OP_RUN_INSTANCES: return 1L + (long)((inl >> 8) & 7u);
    default: return -1;
    }
}

ACCELDEF accel_status accel_refsi_iter_next(accel_refsi_iter *it, accel_refsi_cmd *c)
{
    uint64_t h;
    uint32_t lo, inl, cnt;
    unsigned op;
    size_t chunks, i;
    long want;
    const uint8_t *p;
    accel_status st = ACCEL_OK;
    if (!it || !c) return ACCEL_E_NULL;
    if (it->err != ACCEL_OK) return it->err;
    if (it->done || it->pos >= it->len) {
        it->done = 1;
        return ACCEL_E_EMPTY;
    }
    if (it->len - it->pos < 8u) {
        st = ACCEL_E_REFSI_PARTIAL_CHUNK;
        goto fail;
    }
    h = accel_load_u64le(it->buf + it->pos);
    lo = (uint32_t)(h & 0xFFFFFFFFUL);
    inl = (uint32_t)(h >> 32);
    op = (unsigned)((lo >> 8) & 0xFFu);
    cnt = (lo >> 16) & 0x3FFFu;
    if (lo & 0xFFu) st = ACCEL_E_REFSI_RESERVED;
    else if ((lo >> 30) != 3u) st = ACCEL_E_REFSI_PACKET_ID;
    else if (cnt & 1u) st = ACCEL_E_REFSI_ODD_COUNT;
    else if (op >= ACCEL_REFSI_OP_COUNT) st = ACCEL_E_REFSI_OPCODE;
    if (st != ACCEL_OK) goto fail;
    chunks = (size_t)(cnt / 2u);
    want = accel__refsi_payload_for(op, inl);
    if (want >= 0 && (size_t)want != chunks) st = ACCEL_E_REFSI_PAYLOAD_COUNT;
    else if ((it->len - it->pos - 8u) / 8u < chunks) st = ACCEL_E_REFSI_OVERRUN;
    else if (inl & ~accel__refsi_inline_mask(op)) st = ACCEL_E_REFSI_INLINE_RESERVED;
    else if ((op == ACCEL_REFSI_OP_WRITE_REG64 || op == ACCEL_REFSI_OP_LOAD_REG64 ||
              op == ACCEL_REFSI_OP_STORE_REG64) && inl >= ACCEL_REFSI_NUM_REGS)
        st = ACCEL_E_REFSI_REG;
    else if (op == ACCEL_REFSI_OP_COPY_MEM64 && (it->buf[it->pos + 8u] & 7u))
        st = ACCEL_E_REFSI_SRC_ALIGN; /* the kit's driver requires 8-byte aligned sources */
    if (st != ACCEL_OK) goto fail;

    ACCEL_MEMSET(c, 0, sizeof *c);
    c->opcode = (uint8_t)op;
    c->inline_val = inl;
    c->offset = it->pos;
    c->size = 8u * (chunks + 1u);
    c->payload_chunks = chunks;
    p = it->buf + it->pos + 8u;
    switch (op) {
    case ACCEL_REFSI_OP_NOP: c->payload = p; break;
    case ACCEL_REFSI_OP_WRITE_REG64:
        c->reg = inl;
        c->value = accel_load_u64le(p);
        break;
    case ACCEL_REFSI_OP_LOAD_REG64:
    case ACCEL_REFSI_OP_STORE_REG64:
        c->reg = inl;
        c->addr = accel_load_u64le(p);
        break;
    case ACCEL_REFSI_OP_STORE_IMM64:
        c->addr = inl;
        c->value = accel_load_u64le(p);
        break;
    case ACCEL_REFSI_OP_COPY_MEM64:
        c->count = inl;
        c->src = accel_load_u64le(p);
        c->dst = accel_load_u64le(p + 8);
        c->unit = accel_load_u64le(p + 16);
        break;
    case ACCEL_REFSI_OP_RUN_KERNEL_SLICE:
        c->max_harts = inl & 0xFFu;
        c->instances = accel_load_u64le(p);
        c->slice_id = accel_load_u64le(p + 8);
        break;
    case ACCEL_REFSI_OP_RUN_INSTANCES:
        c->max_harts = inl & 0xFFu;
        c->nargs = (inl >> 8) & 7u;
        c->instances = accel_load_u64le(p);
        for (i = 0; i < c->nargs; i++) c->args[i] = accel_load_u64le(p + 8u * (i + 1u));
        break;
    case ACCEL_REFSI_OP_SYNC_CACHE: c->flags = inl; break;
    default: break; /* FINISH */
    }
    it->pos += c->size;
    it->index++;
    if (op == ACCEL_REFSI_OP_FINISH) it->done = 1;
    return ACCEL_OK;
fail:
    it->err = st;
    return st;
}

ACCELDEF accel_status accel_refsi_validate(const void *buf, size_t len, size_t *ncmds,
                                           size_t *err_index, size_t *err_offset)
{
    accel_refsi_iter it;
    accel_refsi_cmd c;
    accel_status st = accel_refsi_iter_init(&it, buf, len);
    if (st != ACCEL_OK) return st;
    while ((st = accel_refsi_iter_next(&it, &c)) == ACCEL_OK) {
    }
    if (ncmds) *ncmds = it.index;
    if (st == ACCEL_E_EMPTY) return ACCEL_OK;
    if (err_index) *err_index = it.index;
    if (err_offset) *err_offset = it.pos;
    return st;
}

/* -------------------------------------------------------- @refsi.fields: register fields */
ACCELDEF accel_status accel_refsi_pack_entry_pt(uint64_t addr, uint64_t *reg)
{
    if (!reg) return ACCEL_E_NULL;
    if (addr > 0xFFFFFFFFUL) return ACCEL_E_REFSI_FIELD_RANGE;
    *reg = addr;
    return ACCEL_OK;
}
ACCELDEF accel_status accel_refsi_unpack_entry_pt(uint64_t reg, uint32_t *addr)
{
    if (!addr) return ACCEL_E_NULL;
    if (reg >> 32) return ACCEL_E_REFSI_REG_RESERVED;
    *addr = (uint32_t)reg;
    return ACCEL_OK;
}

#define ACCEL__REFSI_ADDR48 0xFFFFFFFFFFFFULL
ACCELDEF accel_status accel_refsi_pack_kub_desc(uint64_t addr, uint32_t size_units, uint64_t *reg)
{
    if (!reg) return ACCEL_E_NULL;
    if (addr > ACCEL__REFSI_ADDR48 || size_units > 0xFFFFu) return ACCEL_E_REFSI_FIELD_RANGE;
    *reg = addr | ((uint64_t)size_units << 48);
    return ACCEL_OK;
}
ACCELDEF accel_status accel_refsi_unpack_kub_desc(uint64_t reg, uint64_t *addr,
                                                  uint32_t *size_units)
{
    if (!addr || !size_units) return ACCEL_E_NULL;
    *addr = reg & ACCEL__REFSI_ADDR48;
    *size_units = (uint32_t)(reg >> 48);
    return ACCEL_OK;
}

/* KARGS_INFO and TSD_INFO share one layout. */
static accel_status accel__refsi_pack_info(uint32_t offset, uint32_t size, uint64_t *reg)
{
    if (!reg) return ACCEL_E_NULL;
    if (offset > 0xFFFFFFUL || size > 0xFFFFFFUL) return ACCEL_E_REFSI_FIELD_RANGE;
    *reg = ((uint64_t)offset << 16) | ((uint64_t)size << 40);
    return ACCEL_OK;
}
static accel_status accel__refsi_unpack_info(uint64_t reg, uint32_t *offset, uint32_t *size)
{
    if (!offset || !size) return ACCEL_E_NULL;
    if (reg & 0xFFFFu) return ACCEL_E_REFSI_REG_RESERVED;
    *offset = (uint32_t)((reg >> 16) & 0xFFFFFFUL);
    *size = (uint32_t)(reg >> 40);
    return ACCEL_OK;
}
ACCELDEF accel_status accel_refsi_pack_kargs_info(uint32_t offset, uint32_t size, uint64_t *reg)
{
    return accel__refsi_pack_info(offset, size, reg);
}
ACCELDEF accel_status accel_refsi_unpack_kargs_info(uint64_t reg, uint32_t *offset,
                                                    uint32_t *size)
{
    return accel__refsi_unpack_info(reg, offset, size);
}
ACCELDEF accel_status accel_refsi_pack_tsd_info(uint32_t offset, uint32_t size, uint64_t *reg)
{
    return accel__refsi_pack_info(offset, size, reg);
}
ACCELDEF accel_status accel_refsi_unpack_tsd_info(uint64_t reg, uint32_t *offset, uint32_t *size)
{
    return accel__refsi_unpack_info(reg, offset, size);
}

/* WINDOW_MODE: 0 ACTIVE, 2:1 MODE, 3 INTERLEAVE, 6:4 PERMS, 12:8 STRIDE, 63:32 SIZE - 1. */
#define ACCEL__REFSI_MODE_RESERVED 0xFFFFE080UL
ACCELDEF accel_status accel_refsi_pack_window_mode(const accel_refsi_window_mode *m, uint64_t *reg)
{
    if (!m || !reg) return ACCEL_E_NULL;
    if (m->active > 1u || m->mode > ACCEL_REFSI_WINDOW_PER_CORE || m->interleave > 1u ||
        m->perms > 7u || m->stride > 31u || m->size == 0 || m->size > 0x100000000ULL)
        return ACCEL_E_REFSI_FIELD_RANGE;
    *reg = (uint64_t)m->active | ((uint64_t)m->mode << 1) | ((uint64_t)m->interleave << 3) |
           ((uint64_t)m->perms << 4) | ((uint64_t)m->stride << 8) | ((m->size - 1u) << 32);
    return ACCEL_OK;
}
ACCELDEF accel_status accel_refsi_unpack_window_mode(uint64_t reg, accel_refsi_window_mode *m)
{
    uint32_t lo = (uint32_t)(reg & 0xFFFFFFFFUL);
    if (!m) return ACCEL_E_NULL;
    if ((lo & ACCEL__REFSI_MODE_RESERVED) || ((lo >> 1) & 3u) == 3u)
        return ACCEL_E_REFSI_REG_RESERVED;
    m->active = (uint8_t)(lo & 1u);
    m->mode = (uint8_t)((lo >> 1) & 3u);
    m->interleave = (uint8_t)((lo >> 3) & 1u);
    m->perms = (uint8_t)((lo >> 4) & 7u);
    m->stride = (uint8_t)((lo >> 8) & 31u);
    m->size = (reg >> 32) + 1u;
    return ACCEL_OK;
}

/* WINDOW_SCALE: 4:0 A (part = 0 for A = 0, else 2^(A-1)), 63:32 B - 1. */
ACCELDEF accel_status accel_refsi_pack_window_scale(uint32_t scale_a, uint64_t scale_b,
                                                    uint64_t *reg)
{
    uint32_t a = 0;
    if (!reg) return ACCEL_E_NULL;
    if (scale_b == 0 || scale_b > 0x100000000ULL) return ACCEL_E_REFSI_FIELD_RANGE;
    if (scale_a) {
        if ((scale_a & (scale_a - 1u)) || scale_a > 0x40000000UL)
            return ACCEL_E_REFSI_FIELD_RANGE;
        while (((uint32_t)1 << a) != scale_a) a++;
        a++;
    }
    *reg = (uint64_t)a | ((scale_b - 1u) << 32);
    return ACCEL_OK;
}
ACCELDEF accel_status accel_refsi_unpack_window_scale(uint64_t reg, uint32_t *scale_a,
                                                      uint64_t *scale_b)
{
    uint32_t a = (uint32_t)(reg & 0x1Fu);
    if (!scale_a || !scale_b) return ACCEL_E_NULL;
    if ((uint32_t)(reg & 0xFFFFFFFFUL) & ~(uint32_t)0x1Fu) return ACCEL_E_REFSI_REG_RESERVED;
    *scale_a = a ? (uint32_t)1 << (a - 1u) : 0u;
    *scale_b = (reg >> 32) + 1u;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_refsi_window_translate(const uint64_t *regs, uint32_t hart_id,
                                                   uint32_t core_id, uint64_t addr, size_t n,
                                                   unsigned access, uint64_t *phys)
{
    unsigned w;
    if (!regs || !phys) return ACCEL_E_NULL;
    if (n == 0) return ACCEL_E_ZERO_LENGTH;
    if ((uint64_t)(n - 1u) > ~(uint64_t)0 - addr) return ACCEL_E_OVERFLOW;
    for (w = 0; w < ACCEL_REFSI_NUM_WINDOWS; w++) {
        accel_refsi_window_mode m;
        uint64_t base = regs[ACCEL_REFSI_REG_WINDOW_BASE(w)], off, scale_b, id;
        uint32_t scale_a;
        accel_status st;
        if (!(regs[ACCEL_REFSI_REG_WINDOW_MODE(w)] & 1u)) continue; /* inactive: not mapped */
        st = accel_refsi_unpack_window_mode(regs[ACCEL_REFSI_REG_WINDOW_MODE(w)], &m);
        if (st != ACCEL_OK) return st;
        if (addr < base) {
            /* starting below the window is physical, but must not run into it */
            if (base - addr < (uint64_t)n) return ACCEL_E_REFSI_WINDOW_BOUNDS;
            continue;
        }
        if (addr - base >= m.size) continue;
        off = addr - base;
        if ((uint64_t)n > m.size - off) return ACCEL_E_REFSI_WINDOW_BOUNDS;
        if ((m.perms & access) != access) return ACCEL_E_REFSI_WINDOW_PERM;
        st = accel_refsi_unpack_window_scale(regs[ACCEL_REFSI_REG_WINDOW_SCALE(w)], &scale_a,
                                             &scale_b);
        if (st != ACCEL_OK) return st;
        id = m.mode == ACCEL_REFSI_WINDOW_PER_HART   ? hart_id
             : m.mode == ACCEL_REFSI_WINDOW_PER_CORE ? core_id
                                                      : 0u;
        /* Address arithmetic wraps modulo 2^64, as a 64-bit address adder does. */
        *phys = regs[ACCEL_REFSI_REG_WINDOW_TARGET(w)] + (uint64_t)scale_a * scale_b * id + off;
        return ACCEL_OK;
    }
    *phys = addr;
    return ACCEL_OK;
}

#ifndef ACCEL_REFSI_NO_MODEL
/* -------------------------------------------------------- @refsi.model: reference command processor */
ACCELDEF accel_status accel_refsi_model_init(accel_refsi_model *cmp, const accel_refsi_model_config *cfg)
{
    if (!cmp || !cfg || !cfg->mem_read || !cfg->mem_write) return ACCEL_E_NULL;
    if (cfg->num_cores == 0 || cfg->harts_per_core == 0) return ACCEL_E_ZERO_LENGTH;
    if ((uint64_t)cfg->num_cores * cfg->harts_per_core > 0xFFFFFFFFUL) return ACCEL_E_ARG;
    ACCEL_MEMCPY(&cmp->cfg, cfg, sizeof cmp->cfg); /* not `=`: gcc may emit memcpy() */
    ACCEL_MEMSET(cmp->regs, 0, sizeof cmp->regs);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_refsi_hart_read(const accel_refsi_hart *h, uint64_t addr, void *dst,
                                            size_t n)
{
    uint64_t phys;
    accel_status st;
    if (!h || !h->cmp || (!dst && n)) return ACCEL_E_NULL;
    if (n == 0) return ACCEL_OK;
    st = accel_refsi_window_translate(h->cmp->regs, h->hart_id, h->core_id, addr, n,
                                      h->cmp->cfg.check_perms ? ACCEL_REFSI_PERM_READ : 0u,
                                      &phys);
    if (st != ACCEL_OK) return st;
    return h->cmp->cfg.mem_read(h->cmp->cfg.user, ACCEL_REFSI_UNIT_HART(h->hart_id), phys, dst,
                                n);
}
ACCELDEF accel_status accel_refsi_hart_write(const accel_refsi_hart *h, uint64_t addr,
                                             const void *src, size_t n)
{
    uint64_t phys;
    accel_status st;
    if (!h || !h->cmp || (!src && n)) return ACCEL_E_NULL;
    if (n == 0) return ACCEL_OK;
    st = accel_refsi_window_translate(h->cmp->regs, h->hart_id, h->core_id, addr, n,
                                      h->cmp->cfg.check_perms ? ACCEL_REFSI_PERM_WRITE : 0u,
                                      &phys);
    if (st != ACCEL_OK) return st;
    return h->cmp->cfg.mem_write(h->cmp->cfg.user, ACCEL_REFSI_UNIT_HART(h->hart_id), phys, src,
                                 n);
}
ACCELDEF accel_status accel_refsi_hart_read64(const accel_refsi_hart *h, uint64_t addr,
                                              uint64_t *v)
{
    uint8_t b[8];
    accel_status st;
    if (!v) return ACCEL_E_NULL;
    st = accel_refsi_hart_read(h, addr, b, 8);
    if (st == ACCEL_OK) *v = accel_load_u64le(b);
    return st;
}
ACCELDEF accel_status accel_refsi_hart_write64(const accel_refsi_hart *h, uint64_t addr,
                                               uint64_t v)
{
    uint8_t b[8];
    accel_store_u64le(b, v);
    return accel_refsi_hart_write(h, addr, b, 8);
}

static accel_status accel__refsi_cmp_read64(accel_refsi_model *cmp, uint64_t unit, uint64_t addr,
                                            uint64_t *v)
{
    uint8_t b[8];
    accel_status st = cmp->cfg.mem_read(cmp->cfg.user, unit, addr, b, 8);
    if (st == ACCEL_OK) *v = accel_load_u64le(b);
    return st;
}
static accel_status accel__refsi_cmp_write64(accel_refsi_model *cmp, uint64_t addr, uint64_t v)
{
    uint8_t b[8];
    accel_store_u64le(b, v);
    return cmp->cfg.mem_write(cmp->cfg.user, ACCEL_REFSI_UNIT_CMP, addr, b, 8);
}

/* RUN_KERNEL_SLICE's KUB-derived addresses, checked once per command. */
typedef struct accel__refsi_slice {
    uint64_t kub_addr, kub_bytes;
    uint32_t kargs_off, kargs_size, tsd_off, tsd_size;
} accel__refsi_slice;

static accel_status accel__refsi_slice_setup(const accel_refsi_model *cmp, accel__refsi_slice *s)
{
    uint64_t kub = cmp->regs[ACCEL_REFSI_REG_KUB_DESC];
    uint32_t units = (uint32_t)(kub >> 48);
    accel_status st;
    /* KUB_DESC has no reserved bits (nothing to refuse): its fields are read directly */
    s->kub_addr = kub & ACCEL__REFSI_ADDR48;
    st = accel_refsi_unpack_kargs_info(cmp->regs[ACCEL_REFSI_REG_KARGS_INFO], &s->kargs_off,
                                           &s->kargs_size);
    if (st == ACCEL_OK)
        st = accel_refsi_unpack_tsd_info(cmp->regs[ACCEL_REFSI_REG_TSD_INFO], &s->tsd_off,
                                         &s->tsd_size);
    if (st != ACCEL_OK) return st;
    s->kub_bytes = (uint64_t)units * 256u;
    if (s->kub_bytes == 0) { /* KUB unused: no packed args, no KTB */
        s->kargs_size = 0;
        s->tsd_size = 0;
        return ACCEL_OK;
    }
    if (s->kargs_size && (uint64_t)s->kargs_off + s->kargs_size > s->kub_bytes)
        return ACCEL_E_REFSI_KUB_RANGE;
    if (s->tsd_size && (uint64_t)s->tsd_off + s->tsd_size > s->kub_bytes)
        return ACCEL_E_REFSI_KUB_RANGE;
    if (s->tsd_size > cmp->cfg.ktb_stride) return ACCEL_E_REFSI_KTB_SIZE;
    return ACCEL_OK;
}

/* Copy the TSD template from the KUB into one hart's KTB (CMP accesses are physical). */
static accel_status accel__refsi_fill_ktb(accel_refsi_model *cmp, const accel__refsi_slice *s,
                                          uint64_t ktb)
{
    uint8_t tmp[32];
    uint32_t done = 0;
    while (done < s->tsd_size) {
        size_t k = s->tsd_size - done < sizeof tmp ? (size_t)(s->tsd_size - done) : sizeof tmp;
        accel_status st = cmp->cfg.mem_read(cmp->cfg.user, ACCEL_REFSI_UNIT_CMP,
                                            s->kub_addr + s->tsd_off + done, tmp, k);
        if (st == ACCEL_OK)
            st = cmp->cfg.mem_write(cmp->cfg.user, ACCEL_REFSI_UNIT_CMP, ktb + done, tmp, k);
        if (st != ACCEL_OK) return st;
        done += (uint32_t)k;
    }
    return ACCEL_OK;
}

static accel_status accel__refsi_run(accel_refsi_model *cmp, const accel_refsi_cmd *c,
                                     accel_refsi_report *r)
{
    accel_refsi_launch l;
    accel_refsi_hart h;
    accel__refsi_slice s;
    uint32_t total = cmp->cfg.num_cores * cmp->cfg.harts_per_core, harts, entry;
    uint64_t i;
    accel_status st;
    if (!cmp->cfg.kernel) return ACCEL_E_UNSUPPORTED;
    if (cmp->cfg.max_instances && c->instances > cmp->cfg.max_instances)
        return ACCEL_E_REFSI_INSTANCES;
    st = accel_refsi_unpack_entry_pt(cmp->regs[ACCEL_REFSI_REG_ENTRY_PT_FN], &entry);
    if (st != ACCEL_OK) return st;
    ACCEL_MEMSET(&s, 0, sizeof s);
    if (c->opcode == ACCEL_REFSI_OP_RUN_KERNEL_SLICE) {
        st = accel__refsi_slice_setup(cmp, &s);
        if (st != ACCEL_OK) return st;
    }
    /* MAX_HARTS 0 means all harts; more than the device has means all it has. */
    harts = (c->max_harts == 0 || c->max_harts > total) ? total : c->max_harts;
    ACCEL_MEMSET(&l, 0, sizeof l);
    l.opcode = c->opcode;
    l.entry_pt = entry;
    l.stack_top = cmp->regs[ACCEL_REFSI_REG_STACK_TOP];
    l.return_addr = cmp->regs[ACCEL_REFSI_REG_RETURN_ADDR];
    l.slice_id = c->slice_id;
    l.nargs = c->nargs;
    ACCEL_MEMCPY(l.args, c->args, sizeof l.args);
    h.cmp = cmp;
    h.hart_id = 0;
    /* Instances go round-robin over the harts, one at a time: the reference is sequential, so
     * results are deterministic; each instance sees its own hart's windows. */
    for (i = 0; i < c->instances; i++, h.hart_id = h.hart_id + 1u == harts ? 0 : h.hart_id + 1u) {
        h.core_id = h.hart_id / cmp->cfg.harts_per_core;
        l.instance_id = i;
        if (c->opcode == ACCEL_REFSI_OP_RUN_KERNEL_SLICE) {
            l.packed_args = s.kargs_size ? s.kub_addr + s.kargs_off
                                         : (uint64_t)ACCEL_REFSI_INVALID_ADDR;
            l.ktb = (uint64_t)ACCEL_REFSI_INVALID_ADDR;
            if (s.tsd_size) {
                l.ktb = cmp->cfg.ktb_base + (uint64_t)h.hart_id * cmp->cfg.ktb_stride;
                st = accel__refsi_fill_ktb(cmp, &s, l.ktb);
            }
        }
        if (st == ACCEL_OK) st = cmp->cfg.kernel(cmp->cfg.user, &h, &l);
        if (st != ACCEL_OK) {
            r->instance = i;
            r->hart = h.hart_id;
            return st;
        }
    }
    return ACCEL_OK;
}

static accel_status accel__refsi_exec_one(accel_refsi_model *cmp, const accel_refsi_cmd *c,
                                          accel_refsi_report *r)
{
    uint64_t v, e;
    accel_status st = ACCEL_OK;
    switch (c->opcode) {
    case ACCEL_REFSI_OP_WRITE_REG64: cmp->regs[c->reg] = c->value; return ACCEL_OK;
    case ACCEL_REFSI_OP_LOAD_REG64:
        st = accel__refsi_cmp_read64(cmp, ACCEL_REFSI_UNIT_CMP, c->addr, &v);
        if (st == ACCEL_OK) cmp->regs[c->reg] = v;
        return st;
    case ACCEL_REFSI_OP_STORE_REG64: return accel__refsi_cmp_write64(cmp, c->addr, cmp->regs[c->reg]);
    case ACCEL_REFSI_OP_STORE_IMM64: return accel__refsi_cmp_write64(cmp, c->addr, c->value);
    case ACCEL_REFSI_OP_COPY_MEM64: /* the decoder has checked the source alignment */
        if (c->count && ((uint64_t)c->count * 8u - 1u > ~(uint64_t)0 - c->src ||
                         (uint64_t)c->count * 8u - 1u > ~(uint64_t)0 - c->dst))
            return ACCEL_E_OVERFLOW;
        /* one element at a time: the source may be a memory-mapped counter */
        for (e = 0; e < c->count; e++) {
            st = accel__refsi_cmp_read64(cmp, c->unit, c->src + 8u * e, &v);
            if (st == ACCEL_OK) st = accel__refsi_cmp_write64(cmp, c->dst + 8u * e, v);
            if (st != ACCEL_OK) {
                r->element = e;
                return st;
            }
        }
        return ACCEL_OK;
    case ACCEL_REFSI_OP_RUN_KERNEL_SLICE:
    case ACCEL_REFSI_OP_RUN_INSTANCES: return accel__refsi_run(cmp, c, r);
    case ACCEL_REFSI_OP_SYNC_CACHE:
        /* DCACHE first: written data must reach memory before anything is re-fetched. */
        if ((c->flags & ACCEL_REFSI_CACHE_DCACHE) && cmp->cfg.sync_cache)
            st = cmp->cfg.sync_cache(cmp->cfg.user, ACCEL_REFSI_CACHE_DCACHE);
        if (st == ACCEL_OK && (c->flags & ACCEL_REFSI_CACHE_ICACHE) && cmp->cfg.sync_cache)
            st = cmp->cfg.sync_cache(cmp->cfg.user, ACCEL_REFSI_CACHE_ICACHE);
        return st;
    default: return ACCEL_OK; /* NOP, FINISH */
    }
}

ACCELDEF accel_status accel_refsi_model_execute(accel_refsi_model *cmp, const void *buf, size_t len,
                                              accel_refsi_report *report)
{
    accel_refsi_report local;
    /* cppcheck-suppress uninitvar ; local is written before it is read (an out-parameter) */
    accel_refsi_report *r = report ? report : &local;
    accel_refsi_iter it;
    accel_refsi_cmd c;
    accel_status st;
    ACCEL_MEMSET(r, 0, sizeof *r);
    r->opcode = 0xFFu;
    if (!cmp) return r->status = ACCEL_E_NULL;
    st = accel_refsi_iter_init(&it, buf, len);
    if (st != ACCEL_OK) return r->status = st;
    for (;;) {
        st = accel_refsi_iter_next(&it, &c);
        if (st == ACCEL_E_EMPTY) break;
        if (st != ACCEL_OK) {
            r->index = it.index;
            r->offset = it.pos;
            return r->status = st;
        }
        st = accel__refsi_exec_one(cmp, &c, r);
        if (st != ACCEL_OK) {
            r->index = it.index - 1u;
            r->offset = c.offset;
            r->opcode = c.opcode;
            return r->status = st;
        }
        r->commands++;
        if (c.opcode == ACCEL_REFSI_OP_FINISH) r->finished = 1;
    }
    return r->status = ACCEL_OK;
}
#endif /* ACCEL_REFSI_NO_MODEL */
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_REFSI */

/* ============================================================================================
 * SECTION: ane (implementation) @ane
 * ============================================================================================ */
#ifndef ACCEL_NO_ANE
#ifdef __cplusplus
extern "C" {
#endif
/* ==== @ane.direct: 1. direct submission ==== */
/* -------------------------------------------------------- @ane.tm_regs: TM/TQ register map */
static const uint8_t accel__ane_prty[ACCEL_ANE_TQ_COUNT] = {1, 2, 3, 4, 5, 6, 30, 31};

ACCELDEF uint32_t accel_ane_tq_priority(unsigned qid)
{
    return qid < ACCEL_ANE_TQ_COUNT ? (uint32_t)accel__ane_prty[qid] : 0u;
}

ACCELDEF uint32_t accel_ane_tm_reg(uint32_t off) { return (uint32_t)ACCEL_ANE_TM_BASE + off; }

ACCELDEF uint32_t accel_ane_tq_reg(unsigned qid, uint32_t off)
{
    return (uint32_t)ACCEL_ANE_TQ_BASE + (uint32_t)qid * (uint32_t)ACCEL_ANE_TQ_STRIDE + off;
}

/* -------------------------------------------------------- @ane.td_hdr: TD header word 0 */
ACCELDEF uint32_t accel_ane_pack_td_hdr0(const accel_ane_td_hdr0 *h)
{
    if (!h) return 0;
    return ((uint32_t)h->tid << 24) | ((uint32_t)h->nid << 16) | ((uint32_t)h->lnid << 8) |
           (uint32_t)h->eon;
}

ACCELDEF void accel_ane_unpack_td_hdr0(uint32_t w, accel_ane_td_hdr0 *h)
{
    if (!h) return;
    h->tid = (uint8_t)(w >> 24);
    h->nid = (uint8_t)(w >> 16);
    h->lnid = (uint8_t)(w >> 8);
    h->eon = (uint8_t)w;
}

ACCELDEF uint32_t accel_ane_td_hdr0_set_nid(uint32_t w, uint8_t nid)
{
    return (w & 0x0f00ffffUL) | ((uint32_t)nid << 16);
}

ACCELDEF accel_status accel_ane_td_patch_nid(uint8_t *td, size_t td_len, unsigned nid)
{
    if (!td) return ACCEL_E_NULL;
    if (td_len < 4) return ACCEL_E_TRUNCATED;
    if (nid > 0xFFu) return ACCEL_E_ANE_NID;
    accel_store_u32le(td, accel_ane_td_hdr0_set_nid(accel_load_u32le(td), (uint8_t)nid));
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.tm: direct submission driver */
static accel_status accel__ane_tm_wr(accel_ane_tm *tm, uint32_t off, uint32_t v)
{
    return accel_port_reg_write32(tm->port, tm->tm_base + off, v);
}
static accel_status accel__ane_tm_rd(accel_ane_tm *tm, uint32_t off, uint32_t *v)
{
    return accel_port_reg_read32(tm->port, tm->tm_base + off, v);
}
static uint32_t accel__ane_tq_off(const accel_ane_tm *tm, unsigned qid, uint32_t off)
{
    return tm->tq_base + (uint32_t)qid * (uint32_t)ACCEL_ANE_TQ_STRIDE + off;
}

ACCELDEF accel_status accel_ane_tm_init(accel_ane_tm *tm, const accel_port *port)
{
    if (!tm || !port) return ACCEL_E_NULL;
    tm->port = port;
    tm->tm_base = (uint32_t)ACCEL_ANE_TM_BASE;
    tm->tq_base = (uint32_t)ACCEL_ANE_TQ_BASE;
    tm->timeout_ms = (uint32_t)ACCEL_ANE_IDLE_TIMEOUT_MS;
    tm->poll_ms = (uint32_t)ACCEL_ANE_POLL_MS;
    tm->enabled = 0;
    tm->busy = 0;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_tm_enable(accel_ane_tm *tm)
{
    unsigned q;
    accel_status st;
    if (!tm || !tm->port) return ACCEL_E_NULL;
    st = accel_port_update32(tm->port, tm->tm_base + ACCEL_ANE_TM_TQ_EN, 0,
                             (uint32_t)ACCEL_ANE_TQ_EN_BITS);
    for (q = 0; q < ACCEL_ANE_TQ_COUNT && st == ACCEL_OK; q++)
        st = accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_PRTY),
                                    (uint32_t)accel__ane_prty[q]);
    if (st == ACCEL_OK) st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_IRQ_EN1, ACCEL_ANE_TM_IRQ_EN1_VALUE);
    if (st == ACCEL_OK) st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_IRQ_EN2, ACCEL_ANE_TM_IRQ_EN2_VALUE);
    if (st == ACCEL_OK) tm->enabled = 1;
    return st;
}

ACCELDEF accel_status accel_ane_tm_disable(accel_ane_tm *tm)
{
    accel_status st;
    if (!tm || !tm->port) return ACCEL_E_NULL;
    tm->enabled = 0; /* even a half-done disable must stop new submissions */
    st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_IRQ_EN1, 0);
    if (st == ACCEL_OK) st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_IRQ_EN2, 0);
    if (st == ACCEL_OK)
        st = accel_port_update32(tm->port, tm->tm_base + ACCEL_ANE_TM_TQ_EN,
                                 (uint32_t)ACCEL_ANE_TQ_EN_BITS, 0);
    return st;
}

ACCELDEF accel_status accel_ane_check_request(const accel_ane_request *req)
{
    if (!req) return ACCEL_E_NULL;
    if (req->qid >= ACCEL_ANE_TQ_COUNT) return ACCEL_E_ANE_QUEUE;
    if (req->nid > 0xFFu) return ACCEL_E_ANE_NID;
    if (req->nbar > ACCEL_ANE_BAR_COUNT) return ACCEL_E_ANE_BAR_COUNT;
    if (req->nbar && !req->bar) return ACCEL_E_NULL;
    if (req->td_size < 4u || req->td_size > (uint32_t)ACCEL_ANE_TD_SIZE_MAX ||
        (req->td_size & 3u) != 0)
        return ACCEL_E_ANE_TD_SIZE;
    if (req->td_count == 0 || req->td_count > (uint32_t)ACCEL_ANE_TD_COUNT_MAX)
        return ACCEL_E_ANE_TD_COUNT;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_tm_enqueue(accel_ane_tm *tm, const accel_ane_request *req)
{
    accel_status st;
    unsigned i, q;
    if (!tm || !tm->port) return ACCEL_E_NULL;
    st = accel_ane_check_request(req);
    if (st != ACCEL_OK) return st;
    if (!tm->enabled) return ACCEL_E_STATE;
    q = req->qid;
    if (tm->busy & (1u << q)) return ACCEL_E_ANE_QUEUE_BUSY;
    tm->busy = (uint8_t)(tm->busy | (1u << q));
    st = accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_STATUS), 1);
    for (i = 0; i < ACCEL_ANE_BAR_COUNT && st == ACCEL_OK; i++)
        st = accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_BAR1(i)),
                                    i < req->nbar ? req->bar[i] : 0u);
    if (st == ACCEL_OK)
        st = accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_SIZE1),
                                    ((req->td_size >> 2) - 1u) << 16);
    if (st == ACCEL_OK)
        st = accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_ADDR1),
                                    req->btsp_iova);
    if (st == ACCEL_OK)
        st = accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_NID1),
                                    ((uint32_t)(req->nid & 0xFFu) << 8) | 1u);
    if (st != ACCEL_OK) (void)accel_ane_tm_release(tm, q); /* never leave a half-built queue */
    return st;
}

ACCELDEF accel_status accel_ane_tm_push(accel_ane_tm *tm, const accel_ane_request *req)
{
    uint32_t addr = 0, size = 0;
    accel_status st;
    unsigned q;
    if (!tm || !tm->port) return ACCEL_E_NULL;
    st = accel_ane_check_request(req);
    if (st != ACCEL_OK) return st;
    q = req->qid;
    if (!(tm->busy & (1u << q))) return ACCEL_E_STATE; /* nothing enqueued on q */
    st = accel_port_reg_read32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_ADDR1), &addr);
    if (st == ACCEL_OK) st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_REQ_ADDR, addr);
    if (st == ACCEL_OK)
        st = accel_port_reg_read32(tm->port, accel__ane_tq_off(tm, q, ACCEL_ANE_TQ_SIZE1), &size);
    if (st == ACCEL_OK) st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_REQ_INFO, size | req->td_count);
    if (st == ACCEL_OK)
        st = accel__ane_tm_wr(tm, ACCEL_ANE_TM_REQ_PUSH,
                              (uint32_t)accel__ane_prty[q] | ((uint32_t)(q & 7u) << 8));
    return st;
}

ACCELDEF accel_status accel_ane_tm_wait_idle(accel_ane_tm *tm, uint32_t *status)
{
    uint32_t last = 0;
    accel_status st;
    if (!tm || !tm->port) return ACCEL_E_NULL;
    st = accel_port_poll32(tm->port, tm->tm_base + ACCEL_ANE_TM_STATUS, ACCEL_ANE_TM_STATUS_IDLE,
                           ACCEL_ANE_TM_STATUS_IDLE, tm->timeout_ms, tm->poll_ms, &last);
    if (status) *status = last;
    return st;
}

ACCELDEF accel_status accel_ane_tm_drain_irq(accel_ane_tm *tm, unsigned line,
                                             accel_ane_irq_event *ev, size_t max,
                                             uint32_t *count)
{
    uint32_t n = 0, i;
    accel_ane_irq_event e;
    accel_status st;
    if (count) *count = 0;
    if (!tm || !tm->port) return ACCEL_E_NULL;
    if (!ev && max) return ACCEL_E_NULL;
    if (line > 1) return ACCEL_E_ARG;
    st = accel__ane_tm_rd(tm, ACCEL_ANE_TM_IRQ_EVTC(line), &n);
    if (st != ACCEL_OK) return st;
    if (count) *count = n;
    /* the count comes from the device: bound the loop */
    for (i = 0; i < n && i < (uint32_t)ACCEL_ANE_IRQ_MAX_EVENTS; i++) {
        st = accel__ane_tm_rd(tm, ACCEL_ANE_TM_IRQ_INFO(line), &e.info);
        if (st == ACCEL_OK) st = accel__ane_tm_rd(tm, ACCEL_ANE_TM_IRQ_UNK1(line), &e.unk1);
        if (st == ACCEL_OK) st = accel__ane_tm_rd(tm, ACCEL_ANE_TM_IRQ_TMST(line), &e.tmst);
        if (st == ACCEL_OK) st = accel__ane_tm_rd(tm, ACCEL_ANE_TM_IRQ_UNK2(line), &e.unk2);
        if (st != ACCEL_OK) return st;
        if ((size_t)i < max) ACCEL_MEMCPY(&ev[i], &e, sizeof e); /* no struct copy: freestanding */
    }
    if (line == 0) {
        st = accel_port_update32(tm->port, tm->tm_base + ACCEL_ANE_TM_IRQ_ACK, 0,
                                 ACCEL_ANE_TM_IRQ_ACK_BIT);
        if (st != ACCEL_OK) return st;
    }
    return n > (uint32_t)ACCEL_ANE_IRQ_MAX_EVENTS ? ACCEL_E_OVERFLOW : ACCEL_OK;
}

ACCELDEF accel_status accel_ane_tm_release(accel_ane_tm *tm, unsigned qid)
{
    if (!tm || !tm->port) return ACCEL_E_NULL;
    if (qid >= ACCEL_ANE_TQ_COUNT) return ACCEL_E_ANE_QUEUE;
    tm->busy = (uint8_t)(tm->busy & ~(1u << qid));
    return accel_port_reg_write32(tm->port, accel__ane_tq_off(tm, qid, ACCEL_ANE_TQ_STATUS), 0);
}

ACCELDEF accel_status accel_ane_tm_execute(accel_ane_tm *tm, const accel_ane_request *req,
                                           accel_ane_result *res)
{
    accel_ane_result r;
    accel_status st, st2;
    ACCEL_MEMSET(&r, 0, sizeof r);
    st = accel_ane_tm_push(tm, req);
    if (st != ACCEL_OK) {
        if (res) ACCEL_MEMCPY(res, &r, sizeof r);
        /* a push that never reached the doorbell must not keep the queue */
        if (tm && req && req->qid < ACCEL_ANE_TQ_COUNT && (tm->busy & (1u << req->qid)))
            (void)accel_ane_tm_release(tm, req->qid);
        return st;
    }
    st = accel_ane_tm_wait_idle(tm, &r.tm_status);
    /* drain and release even after a timeout (the Asahi driver does the same) */
    st2 = accel_ane_tm_drain_irq(tm, 0, NULL, 0, &r.irq_count[0]);
    if (st == ACCEL_OK) st = st2;
    st2 = accel_ane_tm_drain_irq(tm, 1, NULL, 0, &r.irq_count[1]);
    if (st == ACCEL_OK) st = st2;
    st2 = accel_ane_tm_release(tm, req->qid);
    if (st == ACCEL_OK) st = st2;
    if (res) ACCEL_MEMCPY(res, &r, sizeof r);
    return st;
}

ACCELDEF accel_status accel_ane_tm_submit(accel_ane_tm *tm, const accel_ane_request *req,
                                          accel_ane_result *res)
{
    accel_status st = accel_ane_tm_enqueue(tm, req);
    if (st != ACCEL_OK) {
        if (res) ACCEL_MEMSET(res, 0, sizeof *res);
        return st;
    }
    return accel_ane_tm_execute(tm, req, res);
}

#ifndef ACCEL_ANE_NO_MODEL
/* -------------------------------------------------------- @ane.tm_model: register-file model */
static uint32_t *accel__ane_model_reg(accel_ane_tm_model *m, uint32_t off)
{
    if (off & 3u) return NULL;
    if (off >= m->tm_base && off - m->tm_base < ACCEL_ANE_MODEL_TM_WORDS * 4u)
        return &m->tm[(off - m->tm_base) / 4u];
    if (off >= m->tq_base) {
        uint32_t rel = off - m->tq_base;
        if (rel < ACCEL_ANE_MODEL_TQ_WORDS * 4u) return &m->tq[rel / 4u];
    }
    return NULL;
}

static void accel__ane_model_finish(accel_ane_tm_model *m)
{
    uint32_t info = m->tm[ACCEL_ANE_TM_REQ_INFO / 4u];
    uint32_t push = m->tm[ACCEL_ANE_TM_REQ_PUSH / 4u];
    unsigned q = (unsigned)((push >> 8) & 7u);
    uint32_t nid = (m->tq[(q * (uint32_t)ACCEL_ANE_TQ_STRIDE + ACCEL_ANE_TQ_NID1) / 4u] >> 8) & 0xFFu;
    m->running = 0;
    m->tm[ACCEL_ANE_TM_STATUS / 4u] = ACCEL_ANE_TM_STATUS_IDLE;
    m->tm[ACCEL_ANE_TM_COMMIT_INFO / 4u] = nid << 16;
    m->tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u] = 1;
    m->tm[ACCEL_ANE_TM_IRQ_INFO(0) / 4u] = ((info & 0xFFu) << 24) | (nid << 16);
}

static accel_status accel__ane_model_rd(void *user, uint32_t off, uint32_t *v)
{
    accel_ane_tm_model *m = (accel_ane_tm_model *)user;
    uint32_t *r = accel__ane_model_reg(m, off);
    *v = r ? *r : 0u;
    return ACCEL_OK;
}

static accel_status accel__ane_model_wr(void *user, uint32_t off, uint32_t v)
{
    accel_ane_tm_model *m = (accel_ane_tm_model *)user;
    uint32_t *r = accel__ane_model_reg(m, off);
    if (!r) {
        m->bad_writes++;
        return ACCEL_E_ARG;
    }
    *r = v;
    if (off == m->tm_base + ACCEL_ANE_TM_IRQ_ACK && (v & ACCEL_ANE_TM_IRQ_ACK_BIT)) {
        /* ack consumes line 0's events; the ack bit itself self-clears */
        m->tm[ACCEL_ANE_TM_IRQ_EVTC(0) / 4u] = 0;
        *r = v & ~(uint32_t)ACCEL_ANE_TM_IRQ_ACK_BIT;
    }
    if (off == m->tm_base + ACCEL_ANE_TM_REQ_PUSH) {
        m->pushes++;
        m->running = 1;
        m->remaining = m->exec_ms;
        m->tm[ACCEL_ANE_TM_STATUS / 4u] = 0;
        if (!m->stuck && m->remaining == 0) accel__ane_model_finish(m);
    }
    return ACCEL_OK;
}

static void accel__ane_model_delay(void *user, uint32_t ms)
{
    accel_ane_tm_model *m = (accel_ane_tm_model *)user;
    if (!m->running || m->stuck) return;
    if (ms >= m->remaining) {
        m->remaining = 0;
        accel__ane_model_finish(m);
    } else {
        m->remaining -= ms;
    }
}

ACCELDEF accel_status accel_ane_tm_model_init(accel_ane_tm_model *m)
{
    if (!m) return ACCEL_E_NULL;
    ACCEL_MEMSET(m, 0, sizeof *m);
    m->tm_base = (uint32_t)ACCEL_ANE_TM_BASE;
    m->tq_base = (uint32_t)ACCEL_ANE_TQ_BASE;
    m->tm[ACCEL_ANE_TM_STATUS / 4u] = ACCEL_ANE_TM_STATUS_IDLE;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_tm_model_port(accel_ane_tm_model *m, accel_port *model)
{
    if (!m || !model) return ACCEL_E_NULL;
    ACCEL_MEMSET(model, 0, sizeof *model);
    model->user = m;
    model->reg_read32 = accel__ane_model_rd;
    model->reg_write32 = accel__ane_model_wr;
    model->delay_ms = accel__ane_model_delay;
    return ACCEL_OK;
}

#endif /* ACCEL_ANE_NO_MODEL */
/* ==== @ane.fw: 2. firmware command protocol ==== */
/* -------------------------------------------------------- @ane.ids: id tables (data) */
#define ACCEL__ANE_C ACCEL_ANE_SPACE_CTL
#define ACCEL__ANE_W ACCEL_ANE_SPACE_WIRE
#define ACCEL__ANE_HF ACCEL_ANE_DIR_H2F
#define ACCEL__ANE_FH ACCEL_ANE_DIR_F2H
#define ACCEL__ANE_FP ACCEL_ANE_INFO_FASTPATH
#define ACCEL__ANE_AS ACCEL_ANE_INFO_ASSUMED
static const accel_ane_cmd_info accel__ane_cmds[] = {
    /* dispatched space (controller header), ids the guide pins */
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x1e, "CH_PROPERTY_WRITE"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x1f, "CH_PROPERTY_READ"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x41, "PROCEDURE_CALL"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x45, "CACHE_REQUEST_INSTALL"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x46, "CACHE_REQUEST_TRIGGER"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x47, "CACHE_REQUEST_RECYCLE"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x48, "CACHE_REQUEST_INVALIDATE"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x4a, "PREMAP_BUFFER"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x4d, "FORCE_DISABLE_CACHE_REQUESTS"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x4f, "SET_ACTIVE_CACHE_REQUEST_IN_GROUP"},
    {ACCEL__ANE_C, ACCEL__ANE_HF, 0, 0x5a, "INFERENCE_CALL"},
    {ACCEL__ANE_C, ACCEL_ANE_DIR_BOTH, 0, 0x5b, "BACK_CHANNEL_RPC"},
    /* wire enum (exec-loop +4). "assumed": placed by the order the guide lists names in */
    {ACCEL__ANE_W, ACCEL_ANE_DIR_UNKNOWN, 0, 0x0000, "DEBUG_COMMAND_DATA_CHECK"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x002d, "CH_DATA_FILE_LOAD2"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0100, "CH_ERROR_NOTIFICATION"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0101, "CH_POWER_CONTROL"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0102, "CH_SIGNPOST"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0103, "CH_SIGNPOST_GROUP"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0104, "CH_SIGNPOST64"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0105, "CH_SIGNPOST64_GROUP"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0106, "CH_RESET_NOTIFICATION"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0107, "CPU_LOAD_NOTIFICATION"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0108, "SECURE_MODE_RESUME"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0200, "LOAD_PROGRAM"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0201, "UNLOAD_PROGRAM"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0202, "CREATE_PROCESS"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0203, "TERMINATE_PROCESS"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x0204, "PROCEDURE_CALL"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0205, "LOAD_AFPP"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0206, "UNLOAD_AFPP"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0207, "PROGRAM_INTERFACE_VERSION_CHECK"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x0209, "PROCEDURE_CALL_CACHE_REQUEST_TRIGGER"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x020a, "PROCEDURE_CALL_CACHE_REQUEST_SUBMIT"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x020c, "PROCEDURE_CALL_WITH_CUSTOM_BARS"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x0211, "PROCEDURE_CALL_WITH_SIGNAL_EVENTS"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x0212, "PROCEDURE_CALL_VARIANT"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0300, "SET_ACTIVE_CACHE_REQUEST_IN_GROUP"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0301, "PROGRAM_EVENT"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0302, "USER_EVENT"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0303, "DBG_EVENT"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0304, "DATA_CHAINING_EVENT"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, ACCEL__ANE_AS, 0x0305, "PREFETCH_DSID_EVENT"},
    {ACCEL__ANE_W, ACCEL_ANE_DIR_UNKNOWN, ACCEL__ANE_AS, 0x0400, "SECURE_MODE_EVENT"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0401, "REQUEST_PROGRAM_ID"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0402, "RETURN_PROGRAM_ID"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_AS, 0x0403, "REQUEST_PROCESS_ID"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, ACCEL__ANE_FP, 0x0404, "RETURN_PROCESS_ID"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, 0, 0x7000, "INFERENCE_CALL"},
    {ACCEL__ANE_W, ACCEL_ANE_DIR_BOTH, ACCEL__ANE_FP, 0xff00, "BACK_CHANNEL_RPC"},
};

typedef struct accel__ane_family {
    uint8_t space, dir;
    uint16_t lo, hi;
    const char *name;
} accel__ane_family;
static const accel__ane_family accel__ane_families[] = {
    {ACCEL__ANE_C, ACCEL_ANE_DIR_UNKNOWN, 0x00, 0x5c, "dispatched (CAneControllerStringsH11)"},
    {ACCEL__ANE_W, ACCEL_ANE_DIR_UNKNOWN, 0x0000, 0x0000, "outlier"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, 0x0001, 0x0034, "control, config, power, debug"},
    {ACCEL__ANE_W, ACCEL__ANE_FH, 0x0100, 0x0108, "channel notifications"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, 0x0200, 0x0212, "program, process, procedure call"},
    {ACCEL__ANE_W, ACCEL_ANE_DIR_UNKNOWN, 0x0300, 0x0305, "events"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, 0x0400, 0x0404, "id handshakes"},
    {ACCEL__ANE_W, ACCEL__ANE_HF, 0x7000, 0x7000, "outlier"},
    {ACCEL__ANE_W, ACCEL_ANE_DIR_BOTH, 0xff00, 0xff00, "outlier"},
};

ACCELDEF const accel_ane_cmd_info *accel_ane_cmd_table(size_t *n)
{
    if (n) *n = sizeof accel__ane_cmds / sizeof accel__ane_cmds[0];
    return accel__ane_cmds;
}

ACCELDEF accel_status accel_ane_cmd_describe(unsigned space, uint32_t id, accel_ane_cmd_desc *d)
{
    size_t i;
    if (!d) return ACCEL_E_NULL;
    d->name = d->family = "";
    d->dir = ACCEL_ANE_DIR_UNKNOWN;
    d->flags = 0;
    d->named = 0;
    for (i = 0; i < sizeof accel__ane_families / sizeof accel__ane_families[0]; i++) {
        const accel__ane_family *f = &accel__ane_families[i];
        if (f->space == space && id >= f->lo && id <= f->hi) {
            d->family = d->name = f->name;
            d->dir = f->dir;
            break;
        }
    }
    if (d->family[0] == '\0') return ACCEL_E_ANE_ID;
    for (i = 0; i < sizeof accel__ane_cmds / sizeof accel__ane_cmds[0]; i++) {
        const accel_ane_cmd_info *c = &accel__ane_cmds[i];
        if (c->space == space && c->id == id) {
            d->name = c->name;
            d->dir = c->dir;
            d->flags = c->flags;
            d->named = 1;
            break;
        }
    }
    return ACCEL_OK;
}

ACCELDEF int accel_ane_xl_accepts(uint32_t id)
{
    size_t i;
    for (i = 0; i < sizeof accel__ane_cmds / sizeof accel__ane_cmds[0]; i++)
        if (accel__ane_cmds[i].space == ACCEL_ANE_SPACE_WIRE && accel__ane_cmds[i].id == id)
            return (accel__ane_cmds[i].flags & ACCEL_ANE_INFO_FASTPATH) != 0;
    return 0;
}

/* -------------------------------------------------------- @ane.priority: priorities */
ACCELDEF accel_status accel_ane_check_priority(uint32_t priority, int normal_only)
{
    if (priority >= ACCEL_ANE_PRIORITY_LEVELS) return ACCEL_E_ANE_PRIORITY;
    if (normal_only && priority < ACCEL_ANE_PRIORITY_NORMAL_MIN) return ACCEL_E_ANE_PRIORITY_BAND;
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.records: records */
ACCELDEF accel_status accel_ane_encode_event(const accel_ane_event *e, uint8_t *out, size_t cap)
{
    if (!e || !out) return ACCEL_E_NULL;
    if (cap < ACCEL_ANE_EVENT_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, e->type);
    accel_store_u32le(out + 4, e->target_mask);
    accel_store_u64le(out + 8, e->id);
    accel_store_u64le(out + 16, e->value);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_event(const uint8_t *in, size_t len, accel_ane_event *e)
{
    if (!in || !e) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_EVENT_SIZE) return ACCEL_E_TRUNCATED;
    e->type = accel_load_u32le(in);
    e->target_mask = accel_load_u32le(in + 4);
    e->id = accel_load_u64le(in + 8);
    e->value = accel_load_u64le(in + 16);
    return ACCEL_OK;
}

static accel_status accel__ane_bar_check(const accel_ane_bar *b)
{
    if (b->type != ACCEL_ANE_CUSTOM_BAR_GENERIC || b->cfg != ACCEL_ANE_CUSTOM_BAR_HW_32BIT)
        return ACCEL_E_ANE_BAR_TYPE;
    if (b->bar_id >= ACCEL_ANE_BAR_COUNT) return ACCEL_E_ANE_BAR_ID;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_bar(const accel_ane_bar *b, uint8_t *out, size_t cap)
{
    accel_status st;
    if (!b || !out) return ACCEL_E_NULL;
    st = accel__ane_bar_check(b);
    if (st != ACCEL_OK) return st;
    if (cap < ACCEL_ANE_BAR_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, b->type);
    accel_store_u32le(out + 4, b->cfg);
    accel_store_u32le(out + 8, b->bar_id);
    accel_store_u32le(out + 12, 0);
    accel_store_u64le(out + 16, b->value);
    accel_store_u64le(out + 24, b->buf_size);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_bar(const uint8_t *in, size_t len, accel_ane_bar *b)
{
    if (!in || !b) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_BAR_SIZE) return ACCEL_E_TRUNCATED;
    b->type = accel_load_u32le(in);
    b->cfg = accel_load_u32le(in + 4);
    b->bar_id = accel_load_u32le(in + 8);
    b->value = accel_load_u64le(in + 16);
    b->buf_size = accel_load_u64le(in + 24);
    return accel__ane_bar_check(b);
}

/* -------------------------------------------------------- @ane.frames: the two message headers */
ACCELDEF accel_status accel_ane_encode_xl_hdr(uint32_t id, uint8_t *out, size_t cap)
{
    if (!out) return ACCEL_E_NULL;
    if (id > 0xFFFFu) return ACCEL_E_ANE_ID;
    if (cap < ACCEL_ANE_XL_HDR_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, 0);
    accel_store_u16le(out + 4, (uint16_t)id);
    accel_store_u16le(out + 6, 0);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_xl_hdr(const uint8_t *buf, size_t len, uint32_t *id)
{
    if (!buf || !id) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_XL_HDR_SIZE) return ACCEL_E_TRUNCATED;
    *id = accel_load_u16le(buf + 4);
    return ACCEL_OK;
}

static accel_status accel__ane_ctl_hdr_check(const accel_ane_ctl_hdr *h)
{
    accel_ane_cmd_desc d;
    if (h->id > ACCEL_ANE_CTL_ID_MAX) return ACCEL_E_ANE_ID;
    (void)accel_ane_cmd_describe(ACCEL_ANE_SPACE_CTL, h->id, &d);
    if (h->priority >= ACCEL_ANE_PRIORITY_LEVELS) return ACCEL_E_ANE_PRIORITY;
    if (h->program_id < -1) return ACCEL_E_ANE_PROGRAM_ID;
    if (h->process_id < -1) return ACCEL_E_ANE_PROCESS_ID;
    return d.dir == ACCEL_ANE_DIR_F2H ? ACCEL_E_ANE_DIRECTION : ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_ctl_hdr(const accel_ane_ctl_hdr *h, uint8_t *out,
                                               size_t cap)
{
    accel_status st;
    if (!h || !out) return ACCEL_E_NULL;
    st = accel__ane_ctl_hdr_check(h);
    if (st != ACCEL_OK) return st;
    if (cap < ACCEL_ANE_CTL_HDR_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, h->id);
    accel_store_u32le(out + 4, h->size);
    accel_store_u32le(out + 8, h->priority);
    accel_store_u32le(out + 12, (uint32_t)h->program_id);
    accel_store_u32le(out + 16, (uint32_t)h->process_id);
    accel_store_u32le(out + 20, h->procedure_id);
    return ACCEL_OK;
}

static int32_t accel__ane_i32(uint32_t v)
{
    /* two's complement without implementation-defined conversion */
    return v >= 0x80000000UL ? (int32_t)(v - 0x80000000UL) - (int32_t)0x7FFFFFFFL - 1
                             : (int32_t)v;
}

ACCELDEF accel_status accel_ane_decode_ctl_hdr(const uint8_t *buf, size_t len, size_t max_cmd_buf,
                                           accel_ane_ctl_hdr *h, const uint8_t **body)
{
    accel_status st;
    if (body) *body = NULL;
    if (!buf || !h) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_CTL_HDR_SIZE) return ACCEL_E_TRUNCATED;
    h->id = accel_load_u32le(buf);
    h->size = accel_load_u32le(buf + 4);
    h->priority = accel_load_u32le(buf + 8);
    h->program_id = accel__ane_i32(accel_load_u32le(buf + 12));
    h->process_id = accel__ane_i32(accel_load_u32le(buf + 16));
    h->procedure_id = accel_load_u32le(buf + 20);
    /* maxCmdBufSize >= sizeof(*pMsg) + pCmdHdr->size, without overflow */
    if (max_cmd_buf < ACCEL_ANE_CTL_HDR_SIZE) return ACCEL_E_ANE_MSG_SIZE;
    if (sizeof(size_t) >= sizeof(uint32_t)
            ? (size_t)(max_cmd_buf - ACCEL_ANE_CTL_HDR_SIZE) < (size_t)h->size
            : (uint32_t)(max_cmd_buf - ACCEL_ANE_CTL_HDR_SIZE) < h->size)
        return ACCEL_E_ANE_MSG_SIZE;
    if (len - ACCEL_ANE_CTL_HDR_SIZE < (size_t)h->size) return ACCEL_E_TRUNCATED;
    st = accel__ane_ctl_hdr_check(h);
    if (st != ACCEL_OK) return st;
    if (body) *body = buf + ACCEL_ANE_CTL_HDR_SIZE;
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.proc_call: procedure call */
ACCELDEF accel_status accel_ane_proc_call_variant(uint32_t id, unsigned *variant)
{
    if (!variant) return ACCEL_E_NULL;
    switch (id) {
    case ACCEL_ANE_WIRE_PROCEDURE_CALL:
    case ACCEL_ANE_WIRE_PROCEDURE_CALL_VARIANT: *variant = ACCEL_ANE_PC_PLAIN; return ACCEL_OK;
    case ACCEL_ANE_WIRE_PROCEDURE_CALL_WITH_BARS: *variant = ACCEL_ANE_PC_BARS; return ACCEL_OK;
    case ACCEL_ANE_WIRE_PROCEDURE_CALL_WITH_EVENTS: *variant = ACCEL_ANE_PC_EVENTS; return ACCEL_OK;
    default: return ACCEL_E_ANE_ID;
    }
}

/* bytes the message occupies up to and including the variant's fixed tail (callSize) */
static uint32_t accel__ane_pc_callsize(unsigned v, const accel_ane_proc_call *pc)
{
    uint32_t n = ACCEL_ANE_PC_FIXED_SIZE;
    if (v == ACCEL_ANE_PC_BARS) n += pc->nbr_bars * ACCEL_ANE_BAR_SIZE + 8u;
    if (v == ACCEL_ANE_PC_EVENTS) n += 8u + (pc->nbr_wait + pc->nbr_signal) * ACCEL_ANE_EVENT_SIZE;
    return n;
}

ACCELDEF accel_status accel_ane_check_proc_call(const accel_ane_proc_call *pc)
{
    unsigned v = 0;
    accel_status st;
    uint32_t call;
    if (!pc) return ACCEL_E_NULL;
    st = accel_ane_proc_call_variant(pc->id, &v);
    if (st != ACCEL_OK) return st;
    st = accel_ane_check_priority(pc->priority, !pc->realtime_ok);
    if (st != ACCEL_OK) return st;
    if (pc->program_id >= ACCEL_ANE_PROGRAM_ID_LIMIT) return ACCEL_E_ANE_PROGRAM_ID;
    if (pc->proc_id >= ACCEL_ANE_PROCEDURE_ID_LIMIT) return ACCEL_E_ANE_PROCEDURE_ID;
    if (pc->nbr_output_sets != 1) return ACCEL_E_ANE_OUTPUT_SETS;
    if (pc->nbr_td_partitions != 1) return ACCEL_E_ANE_TD_PARTITIONS;
    if (pc->nbr_event_masks != 1) return ACCEL_E_ANE_EVENT_MASKS;
    if (pc->nbr_bars > ACCEL_ANE_MAX_CUSTOM_BARS) return ACCEL_E_ANE_CUSTOM_BARS;
    if (v != ACCEL_ANE_PC_BARS && pc->nbr_bars) return ACCEL_E_ANE_VARIANT;
    if (v == ACCEL_ANE_PC_EVENTS) {
        /* wait events are bounded by the container below; sum first so both rules show */
        if (pc->nbr_wait > ACCEL_ANE_CALL_CONTAINER_SIZE) return ACCEL_E_ANE_MSG_SIZE;
        if (pc->nbr_wait == 0 && pc->nbr_signal == 0) return ACCEL_E_ANE_NO_EVENTS;
        if (pc->nbr_signal == 0 || pc->nbr_signal > ACCEL_ANE_MAX_SIGNAL_EVENTS)
            return ACCEL_E_ANE_SIGNAL_EVENTS;
        if (pc->subnet_custom_order != 0) return ACCEL_E_ANE_SUBNET_ORDER;
        if (pc->shared_events_active > ACCEL_ANE_MAX_SHARED_EVENTS_ACTIVE)
            return ACCEL_E_ANE_SHARED_EVENTS;
    } else if (pc->nbr_wait || pc->nbr_signal || pc->subnet_custom_order ||
               pc->shared_events_active) {
        return ACCEL_E_ANE_VARIANT;
    }
    /* stats: none (both 0), or a buffer covering the three records (Listing 29.5 null rule) */
    if (pc->stats_buffer == 0 ? pc->stats_size != 0 : pc->stats_size < ACCEL_ANE_STATS_MIN_SIZE)
        return ACCEL_E_ANE_STATS;
    call = accel__ane_pc_callsize(v, pc);
    if (call > ACCEL_ANE_CALL_CONTAINER_SIZE) return ACCEL_E_ANE_MSG_SIZE;
    if (v == ACCEL_ANE_PC_BARS) {
        if (pc->nbr_exec_order == 0 || pc->nbr_exec_order > ACCEL_ANE_MAX_EXEC_ORDER)
            return ACCEL_E_ANE_EXEC_ORDER;
        /* callSize <= offset, aligned, offset + n * 4 <= sizeof(container) */
        if (pc->exec_order_offset != 0 &&
            (pc->exec_order_offset < call || (pc->exec_order_offset & 3u) != 0 ||
             pc->exec_order_offset > ACCEL_ANE_CALL_CONTAINER_SIZE))
            return ACCEL_E_ANE_EXEC_ORDER_OFFSET;
        if ((pc->exec_order_offset ? pc->exec_order_offset : call) + pc->nbr_exec_order * 4u >
            ACCEL_ANE_CALL_CONTAINER_SIZE)
            return ACCEL_E_ANE_EXEC_ORDER_OFFSET;
    } else if (pc->nbr_exec_order || pc->exec_order_offset) {
        return ACCEL_E_ANE_VARIANT;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_xl_proc_call(const accel_ane_proc_call *pc, uint8_t *out,
                                                    size_t cap, size_t *len)
{
    unsigned v = 0;
    uint32_t i, call, off, total;
    accel_status st;
    if (len) *len = 0;
    if (!pc || !out || !len) return ACCEL_E_NULL;
    st = accel_ane_check_proc_call(pc);
    if (st != ACCEL_OK) return st;
    (void)accel_ane_proc_call_variant(pc->id, &v);
    if ((pc->nbr_bars && !pc->bars) || (pc->nbr_wait && !pc->wait) ||
        (pc->nbr_signal && !pc->signal) || (pc->nbr_exec_order && !pc->exec_order))
        return ACCEL_E_NULL;
    call = accel__ane_pc_callsize(v, pc);
    off = v == ACCEL_ANE_PC_BARS ? (pc->exec_order_offset ? pc->exec_order_offset : call) : 0;
    total = v == ACCEL_ANE_PC_BARS ? off + pc->nbr_exec_order * 4u : call;
    if (cap < total) return ACCEL_E_BUFFER_TOO_SMALL;
    for (i = 0; i < pc->nbr_bars; i++) { /* check every record before writing anything */
        st = accel__ane_bar_check(&pc->bars[i]);
        if (st != ACCEL_OK) return st;
    }
    ACCEL_MEMSET(out, 0, (size_t)total);
    (void)accel_ane_encode_xl_hdr(pc->id, out, cap);
    accel_store_u32le(out + 0x08, pc->program_id);
    accel_store_u32le(out + 0x0c, pc->proc_id);
    accel_store_u32le(out + 0x10, pc->proc);
    accel_store_u32le(out + 0x14, pc->priority);
    accel_store_u32le(out + 0x18, pc->nbr_output_sets);
    accel_store_u32le(out + 0x1c, pc->nbr_td_partitions);
    accel_store_u32le(out + 0x20, pc->nbr_event_masks);
    accel_store_u32le(out + 0x24, pc->nbr_wait);
    accel_store_u32le(out + 0x28, pc->nbr_signal);
    accel_store_u32le(out + 0x2c, pc->nbr_bars);
    accel_store_u64le(out + 0x30, pc->stats_buffer);
    accel_store_u64le(out + 0x38, pc->stats_size);
    i = ACCEL_ANE_PC_FIXED_SIZE;
    if (v == ACCEL_ANE_PC_BARS) {
        uint32_t k;
        for (k = 0; k < pc->nbr_bars; k++, i += ACCEL_ANE_BAR_SIZE)
            (void)accel_ane_encode_bar(&pc->bars[k], out + i, ACCEL_ANE_BAR_SIZE);
        accel_store_u32le(out + i, pc->nbr_exec_order);
        accel_store_u32le(out + i + 4, off);
        for (k = 0; k < pc->nbr_exec_order; k++) accel_store_u32le(out + off + (size_t)k * 4u, pc->exec_order[k]);
    } else if (v == ACCEL_ANE_PC_EVENTS) {
        uint32_t k;
        accel_store_u32le(out + i, pc->subnet_custom_order);
        accel_store_u32le(out + i + 4, pc->shared_events_active);
        i += 8;
        for (k = 0; k < pc->nbr_wait; k++, i += ACCEL_ANE_EVENT_SIZE)
            (void)accel_ane_encode_event(&pc->wait[k], out + i, ACCEL_ANE_EVENT_SIZE);
        for (k = 0; k < pc->nbr_signal; k++, i += ACCEL_ANE_EVENT_SIZE)
            (void)accel_ane_encode_event(&pc->signal[k], out + i, ACCEL_ANE_EVENT_SIZE);
    }
    *len = (size_t)total; /* <= container size */
    return ACCEL_OK;
}

/* The counted body from +0x18 on (both framings put it there); addressing already in pc. */
static accel_status accel__ane_pc_decode_body(const uint8_t *buf, size_t len, unsigned v,
                                              accel_ane_proc_call *pc)
{
    uint32_t call;
    size_t end;
    accel_status st;
    accel_ane_bar b;
    /* insize <= sizeof(union): nothing larger than the container is even read */
    if (len > ACCEL_ANE_CALL_CONTAINER_SIZE) return ACCEL_E_ANE_MSG_SIZE;
    if (len < ACCEL_ANE_PC_FIXED_SIZE) return ACCEL_E_TRUNCATED;
    pc->nbr_output_sets = accel_load_u32le(buf + 0x18);
    pc->nbr_td_partitions = accel_load_u32le(buf + 0x1c);
    pc->nbr_event_masks = accel_load_u32le(buf + 0x20);
    pc->nbr_wait = accel_load_u32le(buf + 0x24);
    pc->nbr_signal = accel_load_u32le(buf + 0x28);
    pc->nbr_bars = accel_load_u32le(buf + 0x2c);
    pc->stats_buffer = accel_load_u64le(buf + 0x30);
    pc->stats_size = accel_load_u64le(buf + 0x38);
    end = ACCEL_ANE_PC_FIXED_SIZE;
    if (v == ACCEL_ANE_PC_BARS) {
        /* counts may be absurd: bound them before computing sizes */
        if (pc->nbr_bars > ACCEL_ANE_MAX_CUSTOM_BARS) return ACCEL_E_ANE_CUSTOM_BARS;
        end += (size_t)pc->nbr_bars * ACCEL_ANE_BAR_SIZE + 8u;
        if (len < end) return ACCEL_E_TRUNCATED;
        pc->raw_bars = buf + ACCEL_ANE_PC_FIXED_SIZE;
        pc->nbr_exec_order = accel_load_u32le(buf + end - 8);
        pc->exec_order_offset = accel_load_u32le(buf + end - 4);
        if (pc->exec_order_offset == 0) return ACCEL_E_ANE_EXEC_ORDER_OFFSET; /* 0 < callSize */
    } else if (v == ACCEL_ANE_PC_EVENTS) {
        if (len < end + 8u) return ACCEL_E_TRUNCATED;
        pc->subnet_custom_order = accel_load_u32le(buf + end);
        pc->shared_events_active = accel_load_u32le(buf + end + 4);
        end += 8u;
    }
    st = accel_ane_check_proc_call(pc);
    if (st != ACCEL_OK) return st;
    call = accel__ane_pc_callsize(v, pc);
    if (len < call) return ACCEL_E_TRUNCATED;
    if (v == ACCEL_ANE_PC_BARS) {
        uint32_t k;
        for (k = 0; k < pc->nbr_bars; k++) {
            st = accel_ane_decode_bar(pc->raw_bars + (size_t)k * ACCEL_ANE_BAR_SIZE, ACCEL_ANE_BAR_SIZE, &b);
            if (st != ACCEL_OK) return st;
        }
        end = (size_t)pc->exec_order_offset + (size_t)pc->nbr_exec_order * 4u;
        if (len < end) return ACCEL_E_TRUNCATED;
        pc->raw_exec_order = buf + pc->exec_order_offset;
    } else if (v == ACCEL_ANE_PC_EVENTS) {
        pc->raw_wait = buf + end;
        pc->raw_signal = buf + end + (size_t)pc->nbr_wait * ACCEL_ANE_EVENT_SIZE;
        end = (size_t)call;
    }
    if (len != end) return ACCEL_E_MALFORMED; /* trailing bytes: a mis-sized record */
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_xl_proc_call(const uint8_t *buf, size_t len,
                                                    accel_ane_proc_call *pc)
{
    unsigned v = 0;
    uint32_t id;
    accel_status st;
    if (!buf || !pc) return ACCEL_E_NULL;
    ACCEL_MEMSET(pc, 0, sizeof *pc);
    st = accel_ane_decode_xl_hdr(buf, len, &id);
    if (st != ACCEL_OK) return st;
    if (!accel_ane_xl_accepts(id)) return ACCEL_E_ANE_UNSUPPORTED_CMD;
    st = accel_ane_proc_call_variant(id, &v);
    if (st != ACCEL_OK) return st;
    if (len > ACCEL_ANE_CALL_CONTAINER_SIZE) return ACCEL_E_ANE_MSG_SIZE;
    if (len < ACCEL_ANE_PC_FIXED_SIZE) return ACCEL_E_TRUNCATED;
    pc->id = id;
    pc->program_id = accel_load_u32le(buf + 0x08);
    pc->proc_id = accel_load_u32le(buf + 0x0c);
    pc->proc = accel_load_u32le(buf + 0x10);
    pc->priority = accel_load_u32le(buf + 0x14);
    pc->realtime_ok = 1; /* the firmware admits both bands here; callers may re-check */
    return accel__ane_pc_decode_body(buf, len, v, pc);
}

ACCELDEF accel_status accel_ane_encode_ctl_proc_call(const accel_ane_proc_call *pc, uint8_t *out,
                                                     size_t cap, size_t *len)
{
    accel_ane_ctl_hdr h;
    accel_status st;
    if (len) *len = 0;
    if (!pc || !out || !len) return ACCEL_E_NULL;
    if (pc->id != ACCEL_ANE_WIRE_PROCEDURE_CALL) return ACCEL_E_ANE_VARIANT;
    if (pc->proc > 0x7FFFFFFFUL) return ACCEL_E_ANE_PROCESS_ID;
    /* both framings are 24 bytes before the body: encode, then put the header over the front */
    st = accel_ane_encode_xl_proc_call(pc, out, cap, len);
    if (st != ACCEL_OK) return st;
    h.id = ACCEL_ANE_CTL_PROCEDURE_CALL;
    h.size = (uint32_t)(*len - ACCEL_ANE_CTL_HDR_SIZE);
    h.priority = pc->priority;
    h.program_id = (int32_t)pc->program_id; /* < 144 after the check */
    h.process_id = (int32_t)pc->proc;
    h.procedure_id = pc->proc_id;
    st = accel_ane_encode_ctl_hdr(&h, out, cap);
    if (st != ACCEL_OK) *len = 0;
    return st;
}

ACCELDEF accel_status accel_ane_decode_ctl_proc_call(const uint8_t *buf, size_t len,
                                                     size_t max_cmd_buf, accel_ane_ctl_hdr *h,
                                                     accel_ane_proc_call *pc)
{
    accel_status st;
    if (!buf || !h || !pc) return ACCEL_E_NULL;
    ACCEL_MEMSET(pc, 0, sizeof *pc);
    st = accel_ane_decode_ctl_hdr(buf, len, max_cmd_buf, h, NULL);
    if (st != ACCEL_OK) return st;
    if (h->id != ACCEL_ANE_CTL_PROCEDURE_CALL) return ACCEL_E_ANE_ID;
    if (len != ACCEL_ANE_CTL_HDR_SIZE + (size_t)h->size) return ACCEL_E_MALFORMED;
    if (h->program_id < 0) return ACCEL_E_ANE_PROGRAM_ID; /* a call needs a bound program */
    if (h->process_id < 0) return ACCEL_E_ANE_PROCESS_ID;
    pc->id = ACCEL_ANE_WIRE_PROCEDURE_CALL;
    pc->program_id = (uint32_t)h->program_id;
    pc->proc_id = h->procedure_id;
    pc->proc = (uint32_t)h->process_id;
    pc->priority = h->priority;
    pc->realtime_ok = 1;
    return accel__ane_pc_decode_body(buf, len, ACCEL_ANE_PC_PLAIN, pc);
}

/* -------------------------------------------------------- @ane.trigger: cache-request trigger */
ACCELDEF accel_status accel_ane_check_chain_buf(const accel_ane_chain_buf *b, uint32_t nbr_output_sets)
{
    if (!b) return ACCEL_E_NULL;
    if (b->type != ACCEL_ANE_BUFDESC_OUTPUT || b->output_set_id >= nbr_output_sets)
        return ACCEL_E_ANE_CHAIN_BUF;
    if ((b->address >> 32) != 0) return ACCEL_E_ANE_CHAIN_ADDR;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_chain_buf(const uint8_t *in, size_t len, uint32_t nbr_output_sets,
                                                 accel_ane_chain_buf *b)
{
    if (!in || !b) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_CHAIN_BUF_SIZE) return ACCEL_E_TRUNCATED;
    b->type = accel_load_u32le(in);
    b->output_set_id = accel_load_u32le(in + 4);
    b->address = accel_load_u64le(in + 8);
    return accel_ane_check_chain_buf(b, nbr_output_sets);
}

static accel_status accel__ane_trigger_check(const accel_ane_trigger *t)
{
    accel_status st;
    if (t->id != ACCEL_ANE_WIRE_CACHE_REQUEST_TRIGGER && t->id != ACCEL_ANE_WIRE_CACHE_REQUEST_SUBMIT)
        return ACCEL_E_ANE_ID;
    st = accel_ane_check_priority(t->priority, !t->realtime_ok);
    if (st != ACCEL_OK) return st;
    if (t->nbr_requests != 1) return ACCEL_E_ANE_REQUESTS_IN_LIST;
    if (t->nbr_inputs > ACCEL_ANE_MAX_INPUT_BUFFERS) return ACCEL_E_ANE_INPUT_BUFFERS;
    if (t->nbr_output_sets != 1) return ACCEL_E_ANE_OUTPUT_SETS;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_xl_trigger(const accel_ane_trigger *t, uint8_t *out,
                                                  size_t cap, size_t *len)
{
    uint32_t k, total;
    accel_status st;
    if (len) *len = 0;
    if (!t || !out || !len) return ACCEL_E_NULL;
    st = accel__ane_trigger_check(t);
    if (st != ACCEL_OK) return st;
    if (t->nbr_inputs && !t->inputs) return ACCEL_E_NULL;
    for (k = 0; k < t->nbr_inputs; k++) {
        st = accel_ane_check_chain_buf(&t->inputs[k], t->nbr_output_sets);
        if (st != ACCEL_OK) return st;
    }
    total = ACCEL_ANE_TRIGGER_FIXED_SIZE + t->nbr_inputs * ACCEL_ANE_CHAIN_BUF_SIZE;
    if (cap < total) return ACCEL_E_BUFFER_TOO_SMALL;
    (void)accel_ane_encode_xl_hdr(t->id, out, cap);
    accel_store_u64le(out + 0x08, t->cache_handler);
    accel_store_u64le(out + 0x10, t->exec_timestamp);
    accel_store_u32le(out + 0x18, t->priority);
    accel_store_u32le(out + 0x1c, t->nbr_requests);
    accel_store_u32le(out + 0x20, t->nbr_inputs);
    accel_store_u32le(out + 0x24, t->nbr_output_sets);
    for (k = 0; k < t->nbr_inputs; k++) {
        uint8_t *p = out + ACCEL_ANE_TRIGGER_FIXED_SIZE + (size_t)k * ACCEL_ANE_CHAIN_BUF_SIZE;
        accel_store_u32le(p, t->inputs[k].type);
        accel_store_u32le(p + 4, t->inputs[k].output_set_id);
        accel_store_u64le(p + 8, t->inputs[k].address);
    }
    *len = (size_t)total; /* <= container size */
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_xl_trigger(const uint8_t *buf, size_t len,
                                                  accel_ane_trigger *t)
{
    uint32_t id, k;
    accel_status st;
    accel_ane_chain_buf b;
    if (!buf || !t) return ACCEL_E_NULL;
    ACCEL_MEMSET(t, 0, sizeof *t);
    st = accel_ane_decode_xl_hdr(buf, len, &id);
    if (st != ACCEL_OK) return st;
    if (!accel_ane_xl_accepts(id)) return ACCEL_E_ANE_UNSUPPORTED_CMD;
    if (len > ACCEL_ANE_CALL_CONTAINER_SIZE) return ACCEL_E_ANE_MSG_SIZE;
    if (len < ACCEL_ANE_TRIGGER_FIXED_SIZE) return ACCEL_E_TRUNCATED;
    t->id = id;
    t->cache_handler = accel_load_u64le(buf + 0x08);
    t->exec_timestamp = accel_load_u64le(buf + 0x10);
    t->priority = accel_load_u32le(buf + 0x18);
    t->realtime_ok = 1;
    t->nbr_requests = accel_load_u32le(buf + 0x1c);
    t->nbr_inputs = accel_load_u32le(buf + 0x20);
    t->nbr_output_sets = accel_load_u32le(buf + 0x24);
    st = accel__ane_trigger_check(t);
    if (st != ACCEL_OK) return st;
    if (len - ACCEL_ANE_TRIGGER_FIXED_SIZE < (size_t)t->nbr_inputs * ACCEL_ANE_CHAIN_BUF_SIZE)
        return ACCEL_E_TRUNCATED;
    if (len - ACCEL_ANE_TRIGGER_FIXED_SIZE != (size_t)t->nbr_inputs * ACCEL_ANE_CHAIN_BUF_SIZE)
        return ACCEL_E_MALFORMED;
    t->raw_inputs = buf + ACCEL_ANE_TRIGGER_FIXED_SIZE;
    for (k = 0; k < t->nbr_inputs; k++) {
        st = accel_ane_decode_chain_buf(t->raw_inputs + (size_t)k * ACCEL_ANE_CHAIN_BUF_SIZE,
                                        ACCEL_ANE_CHAIN_BUF_SIZE, t->nbr_output_sets, &b);
        if (st != ACCEL_OK) return st;
    }
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.rpc: back-channel RPC */
ACCELDEF accel_status accel_ane_encode_rpc(const uint8_t *payload, uint32_t n, uint8_t *out,
                                           size_t cap, size_t *len)
{
    if (len) *len = 0;
    if (!out || !len || (n && !payload)) return ACCEL_E_NULL;
    if (n > ACCEL_ANE_RPC_MAX_LEN) return ACCEL_E_ANE_RPC_LENGTH;
    if (cap < 8u || cap - 8u < (size_t)n) return ACCEL_E_BUFFER_TOO_SMALL; /* n fits size_t here */
    accel_store_u32le(out, ACCEL_ANE_RPC_MAGIC);
    accel_store_u32le(out + 4, n);
    if (n) ACCEL_MEMCPY(out + 8, payload, (size_t)n);
    *len = 8u + (size_t)n;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_rpc(const uint8_t *body, size_t len,
                                           const uint8_t **payload, uint32_t *n)
{
    uint32_t m, ln;
    if (payload) *payload = NULL;
    if (n) *n = 0;
    if (!body || !payload || !n) return ACCEL_E_NULL;
    if (len < 8u) return ACCEL_E_TRUNCATED;
    m = accel_load_u32le(body);
    ln = accel_load_u32le(body + 4);
    if (ln > ACCEL_ANE_RPC_MAX_LEN) return ACCEL_E_ANE_RPC_LENGTH;
    if (m != ACCEL_ANE_RPC_MAGIC) return ACCEL_E_ANE_RPC_MAGIC;
    if (len - 8u < ln) return ACCEL_E_TRUNCATED; /* compare in the wider type */
    if (len - 8u != ln) return ACCEL_E_MALFORMED;
    *payload = body + 8;
    *n = ln;
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.xl_cmds: other exec-loop commands */
ACCELDEF accel_status accel_ane_encode_xl_return_pid(int32_t pid, uint8_t *out, size_t cap, size_t *len)
{
    if (len) *len = 0;
    if (!out || !len) return ACCEL_E_NULL;
    if (pid < 0) return ACCEL_E_ANE_PROCESS_ID;
    if (cap < 12u) return ACCEL_E_BUFFER_TOO_SMALL;
    (void)accel_ane_encode_xl_hdr(ACCEL_ANE_WIRE_RETURN_PROCESS_ID, out, cap);
    accel_store_u32le(out + 8, (uint32_t)pid);
    *len = 12u;
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.ctl_bodies: controller bodies */
ACCELDEF accel_status accel_ane_encode_property(int write, uint64_t reg_addr, uint32_t value,
                                                uint8_t *out, size_t cap)
{
    if (!out) return ACCEL_E_NULL;
    if (write && value == 0) return ACCEL_E_ANE_REG_VALUE;
    if (cap < ACCEL_ANE_PROPERTY_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u64le(out, reg_addr);
    accel_store_u32le(out + 8, value);
    accel_store_u32le(out + 12, 0);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_property(int write, const uint8_t *body, size_t len,
                                                uint64_t *reg_addr, uint32_t *value)
{
    if (!body || !reg_addr || !value) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_PROPERTY_SIZE) return ACCEL_E_TRUNCATED;
    if (len != ACCEL_ANE_PROPERTY_SIZE) return ACCEL_E_MALFORMED;
    *reg_addr = accel_load_u64le(body);
    *value = accel_load_u32le(body + 8);
    if (write && *value == 0) return ACCEL_E_ANE_REG_VALUE;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_premap(uint32_t nops, uint32_t nbufs, uint64_t addr,
                                              uint64_t size, uint8_t *out, size_t cap)
{
    if (!out) return ACCEL_E_NULL;
    if (nops != 1 || nbufs != 1 || addr == 0 || size == 0) return ACCEL_E_ANE_PREMAP;
    if (cap < ACCEL_ANE_PREMAP_SIZE) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, nops);
    accel_store_u32le(out + 4, nbufs);
    accel_store_u64le(out + 8, addr);
    accel_store_u64le(out + 16, size);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_premap(const uint8_t *body, size_t len, uint64_t *addr,
                                              uint64_t *size)
{
    if (!body || !addr || !size) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_PREMAP_SIZE) return ACCEL_E_TRUNCATED;
    if (len != ACCEL_ANE_PREMAP_SIZE) return ACCEL_E_MALFORMED;
    *addr = accel_load_u64le(body + 8);
    *size = accel_load_u64le(body + 16);
    if (accel_load_u32le(body) != 1 || accel_load_u32le(body + 4) != 1 || *addr == 0 || *size == 0)
        return ACCEL_E_ANE_PREMAP;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_inference(uint32_t num_io_buffers, uint32_t buf_nbr,
                                                 uint64_t prop_addr, uint64_t prop_size,
                                                 const uint64_t *addr_size_pairs, uint8_t *out,
                                                 size_t cap, size_t *len)
{
    uint32_t k;
    if (len) *len = 0;
    if (!out || !len || !addr_size_pairs) return ACCEL_E_NULL;
    if (num_io_buffers >= 0xFFFFFFFFUL || buf_nbr != num_io_buffers + 1u) return ACCEL_E_ANE_BUF_COUNT;
    if (buf_nbr > (ACCEL_ANE_CALL_CONTAINER_SIZE - ACCEL_ANE_INFERENCE_FIXED_SIZE) / 16u)
        return ACCEL_E_ANE_MSG_SIZE;
    if (cap < ACCEL_ANE_INFERENCE_FIXED_SIZE + (size_t)buf_nbr * 16u) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, buf_nbr);
    accel_store_u32le(out + 4, 0);
    accel_store_u64le(out + 8, prop_addr);
    accel_store_u64le(out + 16, prop_size);
    for (k = 0; k < buf_nbr; k++) {
        accel_store_u64le(out + 24 + (size_t)k * 16u, addr_size_pairs[(size_t)k * 2u]);
        accel_store_u64le(out + 32 + (size_t)k * 16u, addr_size_pairs[(size_t)k * 2u + 1u]);
    }
    *len = ACCEL_ANE_INFERENCE_FIXED_SIZE + (size_t)buf_nbr * 16u;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_inference(const uint8_t *body, size_t len,
                                                 uint32_t num_io_buffers, uint32_t *buf_nbr,
                                                 uint64_t *prop_addr, uint64_t *prop_size,
                                                 const uint8_t **raw_bufs)
{
    uint32_t n;
    if (!body || !buf_nbr || !prop_addr || !prop_size || !raw_bufs) return ACCEL_E_NULL;
    *raw_bufs = NULL;
    if (len < ACCEL_ANE_INFERENCE_FIXED_SIZE) return ACCEL_E_TRUNCATED;
    n = accel_load_u32le(body);
    *buf_nbr = n;
    *prop_addr = accel_load_u64le(body + 8);
    *prop_size = accel_load_u64le(body + 16);
    if (num_io_buffers >= 0xFFFFFFFFUL || n != num_io_buffers + 1u) return ACCEL_E_ANE_BUF_COUNT;
    if (n > (ACCEL_ANE_CALL_CONTAINER_SIZE - ACCEL_ANE_INFERENCE_FIXED_SIZE) / 16u)
        return ACCEL_E_ANE_MSG_SIZE;
    if (len - ACCEL_ANE_INFERENCE_FIXED_SIZE < (size_t)n * 16u) return ACCEL_E_TRUNCATED;
    if (len - ACCEL_ANE_INFERENCE_FIXED_SIZE != (size_t)n * 16u) return ACCEL_E_MALFORMED;
    *raw_bufs = body + ACCEL_ANE_INFERENCE_FIXED_SIZE;
    return ACCEL_OK;
}

static size_t accel__ane_cr_body_size(uint32_t id)
{
    switch (id) {
    case ACCEL_ANE_CTL_CACHE_REQUEST_INSTALL: return 8u;
    case ACCEL_ANE_CTL_CACHE_REQUEST_RECYCLE: return 16u;
    case ACCEL_ANE_CTL_CACHE_REQUEST_INVALIDATE:
    case ACCEL_ANE_CTL_SET_ACTIVE_CACHE_REQUEST_IN_GROUP: return 8u;
    default: return 0;
    }
}

ACCELDEF accel_status accel_ane_encode_cr_body(uint32_t ctl_id, uint64_t handle, uint32_t set_id,
                                               uint8_t *out, size_t cap, size_t *len)
{
    size_t n = accel__ane_cr_body_size(ctl_id);
    if (len) *len = 0;
    if (!out || !len) return ACCEL_E_NULL;
    if (!n) return ACCEL_E_ANE_ID;
    if (ctl_id == ACCEL_ANE_CTL_CACHE_REQUEST_RECYCLE && set_id >= 1u) return ACCEL_E_ANE_CHAIN_BUF;
    if (cap < n) return ACCEL_E_BUFFER_TOO_SMALL;
    if (ctl_id == ACCEL_ANE_CTL_CACHE_REQUEST_INSTALL) {
        accel_store_u32le(out, 1);
        accel_store_u32le(out + 4, 1);
    } else {
        accel_store_u64le(out, handle);
        if (n == 16u) {
            accel_store_u32le(out + 8, set_id);
            accel_store_u32le(out + 12, 0);
        }
    }
    *len = n;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_cr_body(uint32_t ctl_id, const uint8_t *body, size_t len,
                                               uint64_t *handle, uint32_t *set_id)
{
    size_t n = accel__ane_cr_body_size(ctl_id);
    if (!body || !handle || !set_id) return ACCEL_E_NULL;
    *handle = 0;
    *set_id = 0;
    if (!n) return ACCEL_E_ANE_ID;
    if (len < n) return ACCEL_E_TRUNCATED;
    if (len != n) return ACCEL_E_MALFORMED;
    if (ctl_id == ACCEL_ANE_CTL_CACHE_REQUEST_INSTALL) {
        if (accel_load_u32le(body) != 1) return ACCEL_E_ANE_REQUESTS_IN_LIST;
        if (accel_load_u32le(body + 4) != 1) return ACCEL_E_ANE_OUTPUT_SETS;
        return ACCEL_OK;
    }
    *handle = accel_load_u64le(body);
    if (n == 16u) {
        *set_id = accel_load_u32le(body + 8);
        if (*set_id >= 1u) return ACCEL_E_ANE_CHAIN_BUF;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_encode_force_disable(uint32_t disable, uint8_t *out, size_t cap)
{
    if (!out) return ACCEL_E_NULL;
    if (disable != 1) return ACCEL_E_ANE_FORCE_DISABLE;
    if (cap < 4u) return ACCEL_E_BUFFER_TOO_SMALL;
    accel_store_u32le(out, disable);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_force_disable(const uint8_t *body, size_t len)
{
    if (!body) return ACCEL_E_NULL;
    if (len < 4u) return ACCEL_E_TRUNCATED;
    if (len != 4u) return ACCEL_E_MALFORMED;
    return accel_load_u32le(body) == 1 ? ACCEL_OK : ACCEL_E_ANE_FORCE_DISABLE;
}

/* -------------------------------------------------------- @ane.notes: notifications */
static unsigned accel__ane_note_kind(uint32_t id)
{
    switch (id) {
    case ACCEL_ANE_WIRE_PROGRAM_EVENT: return ACCEL_ANE_NOTE_PROGRAM_EVENT;
    case ACCEL_ANE_WIRE_DATA_CHAINING_EVENT: return ACCEL_ANE_NOTE_DATA_CHAINING;
    case ACCEL_ANE_WIRE_PREFETCH_DSID_EVENT: return ACCEL_ANE_NOTE_PREFETCH_DSID;
    case ACCEL_ANE_WIRE_CH_ERROR_NOTIFICATION: return ACCEL_ANE_NOTE_CH_ERROR;
    case ACCEL_ANE_WIRE_CH_RESET_NOTIFICATION: return ACCEL_ANE_NOTE_RESET;
    case ACCEL_ANE_WIRE_CH_SIGNPOST:
    case ACCEL_ANE_WIRE_CH_SIGNPOST_GROUP:
    case ACCEL_ANE_WIRE_CH_SIGNPOST64:
    case ACCEL_ANE_WIRE_CH_SIGNPOST64_GROUP: return ACCEL_ANE_NOTE_SIGNPOST;
    default: return ACCEL_ANE_NOTE_OTHER;
    }
}

static accel_status accel__ane_note_id_check(uint32_t id)
{
    accel_ane_cmd_desc d;
    if (accel_ane_cmd_describe(ACCEL_ANE_SPACE_WIRE, id, &d) != ACCEL_OK) return ACCEL_E_ANE_ID;
    return (d.dir == ACCEL_ANE_DIR_F2H || d.dir == ACCEL_ANE_DIR_BOTH) ? ACCEL_OK
                                                                      : ACCEL_E_ANE_DIRECTION;
}

static uint32_t accel__ane_sp_size(uint32_t id)
{
    return (id == ACCEL_ANE_WIRE_CH_SIGNPOST64 || id == ACCEL_ANE_WIRE_CH_SIGNPOST64_GROUP) ? 24u : 16u;
}

static accel_status accel__ane_tq_range(uint32_t first, uint32_t last)
{
    return (first >= 1 && first <= last && last <= 255u) ? ACCEL_OK : ACCEL_E_ANE_TQ_RANGE;
}

ACCELDEF accel_status accel_ane_encode_note(const accel_ane_note *n, uint8_t *out, size_t cap,
                                            size_t *len)
{
    accel_status st;
    size_t need = 8;
    unsigned kind;
    int grouped;
    if (len) *len = 0;
    if (!n || !out || !len) return ACCEL_E_NULL;
    st = accel__ane_note_id_check(n->id);
    if (st != ACCEL_OK) return st;
    kind = accel__ane_note_kind(n->id);
    grouped = n->id == ACCEL_ANE_WIRE_CH_SIGNPOST_GROUP || n->id == ACCEL_ANE_WIRE_CH_SIGNPOST64_GROUP;
    switch (kind) {
    case ACCEL_ANE_NOTE_PROGRAM_EVENT: need = 0x14; break;
    case ACCEL_ANE_NOTE_DATA_CHAINING: need = 0x1c; break;
    case ACCEL_ANE_NOTE_PREFETCH_DSID:
    case ACCEL_ANE_NOTE_CH_ERROR: need = 0x10; break;
    case ACCEL_ANE_NOTE_RESET:
        st = accel__ane_tq_range(n->first_tq, n->last_tq);
        if (st != ACCEL_OK) return st;
        need = 0x10;
        break;
    case ACCEL_ANE_NOTE_SIGNPOST:
        if (!n->payload && n->sp_count) return ACCEL_E_NULL;
        if (grouped ? n->sp_count == 0 : n->sp_count != 1) return ACCEL_E_MALFORMED;
        if (n->sp_count > (ACCEL_ANE_CALL_CONTAINER_SIZE - 12u) / accel__ane_sp_size(n->id))
            return ACCEL_E_ANE_MSG_SIZE;
        need = (size_t)((grouped ? 12u : 8u) + n->sp_count * accel__ane_sp_size(n->id)); /* NOLINT(bugprone-misplaced-widening-cast): bounded by the container size just above */
        break;
    default:
        if (!n->payload && n->payload_len) return ACCEL_E_NULL;
        if (n->payload_len > ACCEL_ANE_CALL_CONTAINER_SIZE - 8u) return ACCEL_E_ANE_MSG_SIZE;
        need = 8u + n->payload_len;
        break;
    }
    if (cap < need) return ACCEL_E_BUFFER_TOO_SMALL;
    ACCEL_MEMSET(out, 0, need);
    (void)accel_ane_encode_xl_hdr(n->id, out, cap);
    switch (kind) {
    case ACCEL_ANE_NOTE_PROGRAM_EVENT:
        accel_store_u32le(out + 8, (uint32_t)n->program_id);
        accel_store_u32le(out + 12, (uint32_t)n->process_id);
        accel_store_u32le(out + 16, n->event);
        break;
    case ACCEL_ANE_NOTE_DATA_CHAINING:
        accel_store_u64le(out + 8, n->cache_handler);
        accel_store_u64le(out + 16, n->exec_timestamp);
        accel_store_u32le(out + 24, n->status);
        break;
    case ACCEL_ANE_NOTE_PREFETCH_DSID:
        accel_store_u32le(out + 8, n->dsid);
        accel_store_u32le(out + 12, n->event);
        break;
    case ACCEL_ANE_NOTE_CH_ERROR:
        accel_store_u32le(out + 8, n->channel);
        accel_store_u32le(out + 12, n->error_index);
        break;
    case ACCEL_ANE_NOTE_RESET:
        accel_store_u32le(out + 8, n->first_tq);
        accel_store_u32le(out + 12, n->last_tq);
        break;
    case ACCEL_ANE_NOTE_SIGNPOST:
        if (grouped) accel_store_u32le(out + 8, n->sp_count);
        if (n->sp_count) ACCEL_MEMCPY(out + (grouped ? 12 : 8), n->payload, need - (grouped ? 12u : 8u));
        break;
    default:
        if (n->payload_len) ACCEL_MEMCPY(out + 8, n->payload, n->payload_len);
        break;
    }
    *len = need;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_note(const uint8_t *buf, size_t len, accel_ane_note *n)
{
    uint32_t id;
    accel_status st;
    size_t need = 8;
    if (!buf || !n) return ACCEL_E_NULL;
    ACCEL_MEMSET(n, 0, sizeof *n);
    st = accel_ane_decode_xl_hdr(buf, len, &id);
    if (st != ACCEL_OK) return st;
    st = accel__ane_note_id_check(id);
    if (st != ACCEL_OK) return st;
    if (len > ACCEL_ANE_CALL_CONTAINER_SIZE) return ACCEL_E_ANE_MSG_SIZE;
    n->id = id;
    n->kind = accel__ane_note_kind(id);
    switch (n->kind) {
    case ACCEL_ANE_NOTE_PROGRAM_EVENT:
        need = 0x14;
        if (len < need) return ACCEL_E_TRUNCATED;
        n->program_id = accel__ane_i32(accel_load_u32le(buf + 8));
        n->process_id = accel__ane_i32(accel_load_u32le(buf + 12));
        n->event = accel_load_u32le(buf + 16);
        break;
    case ACCEL_ANE_NOTE_DATA_CHAINING:
        need = 0x1c;
        if (len < need) return ACCEL_E_TRUNCATED;
        n->cache_handler = accel_load_u64le(buf + 8);
        n->exec_timestamp = accel_load_u64le(buf + 16);
        n->status = accel_load_u32le(buf + 24);
        break;
    case ACCEL_ANE_NOTE_PREFETCH_DSID:
        need = 0x10;
        if (len < need) return ACCEL_E_TRUNCATED;
        n->dsid = accel_load_u32le(buf + 8);
        n->event = accel_load_u32le(buf + 12);
        break;
    case ACCEL_ANE_NOTE_CH_ERROR:
        need = 0x10;
        if (len < need) return ACCEL_E_TRUNCATED;
        n->channel = accel_load_u32le(buf + 8);
        n->error_index = accel_load_u32le(buf + 12);
        break;
    case ACCEL_ANE_NOTE_RESET:
        need = 0x10;
        if (len < need) return ACCEL_E_TRUNCATED;
        n->first_tq = accel_load_u32le(buf + 8);
        n->last_tq = accel_load_u32le(buf + 12);
        st = accel__ane_tq_range(n->first_tq, n->last_tq);
        if (st != ACCEL_OK) return st;
        break;
    case ACCEL_ANE_NOTE_SIGNPOST: {
        int grouped = id == ACCEL_ANE_WIRE_CH_SIGNPOST_GROUP || id == ACCEL_ANE_WIRE_CH_SIGNPOST64_GROUP;
        size_t hdr = grouped ? 12u : 8u;
        n->sp_size = accel__ane_sp_size(id);
        if (len < hdr) return ACCEL_E_TRUNCATED;
        n->sp_count = grouped ? accel_load_u32le(buf + 8) : 1u;
        if (n->sp_count == 0) return ACCEL_E_MALFORMED;
        if (n->sp_count > (ACCEL_ANE_CALL_CONTAINER_SIZE - 12u) / n->sp_size) return ACCEL_E_ANE_MSG_SIZE;
        need = hdr + (size_t)(n->sp_count * n->sp_size);
        if (len < need) return ACCEL_E_TRUNCATED;
        n->payload = buf + hdr;
        n->payload_len = need - hdr;
        break;
    }
    default:
        n->payload = buf + 8;
        n->payload_len = len - 8;
        need = len;
        break;
    }
    if (len != need) return ACCEL_E_MALFORMED;
    return ACCEL_OK;
}

#ifndef ACCEL_ANE_NO_MODEL
/* ==== @ane.fw_model: 3. firmware reference model ==== */
/* -------------------------------------------------------- @ane.exec_loop: exec loop */
ACCELDEF void accel_ane_xl_fsm_init(accel_ane_xl_fsm *f)
{
    if (f) ACCEL_MEMSET(f, 0, sizeof *f);
}

ACCELDEF accel_status accel_ane_xl_fsm_arm(accel_ane_xl_fsm *f)
{
    if (!f) return ACCEL_E_NULL;
    if (f->state != ACCEL_ANE_XL_INIT) return ACCEL_E_STATE;
    f->state = ACCEL_ANE_XL_RUN;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_xl_fsm_event(accel_ane_xl_fsm *f, unsigned ev)
{
    if (!f) return ACCEL_E_NULL;
    if (ev >= ACCEL_ANE_XL_EVENTS) return ACCEL_E_ARG;
    if (f->asserted || f->state == ACCEL_ANE_XL_PAUSE) {
        f->asserted = 1;
        return ACCEL_E_ANE_INVARIANT;
    }
    switch (f->state) {
    case ACCEL_ANE_XL_RUN:
        if (ev == ACCEL_ANE_XL_EV_DISPATCH) {
            f->state = f->secure ? ACCEL_ANE_XL_EXEC_SECURE : ACCEL_ANE_XL_EXEC;
        } else if (ev == ACCEL_ANE_XL_EV_DRAIN) {
            /* already idle */
        } else if ((ev == ACCEL_ANE_XL_EV_ENTER_SECURE) == (f->secure != 0)) {
            return ACCEL_E_STATE; /* already in the requested phase */
        } else {
            f->pending_secure = (uint8_t)(ev == ACCEL_ANE_XL_EV_ENTER_SECURE);
            f->state = ACCEL_ANE_XL_PAUSE;
        }
        return ACCEL_OK;
    case ACCEL_ANE_XL_EXEC:
    case ACCEL_ANE_XL_EXEC_SECURE:
        if (ev == ACCEL_ANE_XL_EV_DRAIN) {
            f->state = ACCEL_ANE_XL_RUN;
            return ACCEL_OK;
        }
        /* one partition in flight, run to completion; a switch must quiesce first */
        return ev == ACCEL_ANE_XL_EV_DISPATCH ? ACCEL_E_BUSY : ACCEL_E_STATE;
    default:
        return ACCEL_E_STATE; /* INIT: not armed */
    }
}

ACCELDEF accel_status accel_ane_xl_fsm_resume(accel_ane_xl_fsm *f)
{
    if (!f) return ACCEL_E_NULL;
    if (f->state != ACCEL_ANE_XL_PAUSE || f->asserted) return ACCEL_E_STATE;
    f->secure = f->pending_secure;
    f->state = ACCEL_ANE_XL_RUN;
    return ACCEL_OK;
}

ACCELDEF int accel_ane_xl_fsm_hw_allowed(const accel_ane_xl_fsm *f)
{
    return f && (f->state == ACCEL_ANE_XL_EXEC || f->state == ACCEL_ANE_XL_EXEC_SECURE);
}

/* -------------------------------------------------------- @ane.process: process slots */
ACCELDEF void accel_ane_proc_fsm_init(accel_ane_proc_fsm *p)
{
    if (p) ACCEL_MEMSET(p, 0, sizeof *p);
}

ACCELDEF accel_status accel_ane_proc_fsm_event(accel_ane_proc_fsm *p, unsigned ev)
{
    if (!p) return ACCEL_E_NULL;
    switch (ev) {
    case ACCEL_ANE_PROC_EV_START:
        if (p->state != ACCEL_ANE_PROC_IDLE) return ACCEL_E_STATE;
        p->state = ACCEL_ANE_PROC_RUNNING;
        return ACCEL_OK;
    case ACCEL_ANE_PROC_EV_STOP:
        if (p->state != ACCEL_ANE_PROC_RUNNING) return ACCEL_E_STATE;
        p->state = ACCEL_ANE_PROC_IDLE;
        return ACCEL_OK;
    case ACCEL_ANE_PROC_EV_CALL:
        if (p->state != ACCEL_ANE_PROC_RUNNING) {
            p->dropped++; /* dropped and counted, not faulted */
            return ACCEL_E_ANE_NOT_RUNNING;
        }
        p->calls++;
        return ACCEL_OK;
    default: return ACCEL_E_ARG;
    }
}

/* -------------------------------------------------------- @ane.cache: cache requests */
ACCELDEF accel_status accel_ane_cr_init(accel_ane_cr_pool *p, uint32_t max)
{
    if (!p) return ACCEL_E_NULL;
    if (max == 0 || max > ACCEL_ANE_MAX_CACHE_REQUESTS) return ACCEL_E_ARG;
    ACCEL_MEMSET(p, 0, sizeof *p);
    p->max = max;
    return ACCEL_OK;
}

static accel_ane_cr_slot *accel__ane_cr_find(accel_ane_cr_pool *p, uint64_t h)
{
    uint64_t idx = h & 0xFFu;
    if (idx >= p->max || (h >> 16) != 0) return NULL;
    if (((h >> 8) & 0xFFu) != p->slot[idx].gen || p->slot[idx].state == ACCEL_ANE_CR_AVAILABLE)
        return NULL;
    return &p->slot[idx];
}

ACCELDEF accel_status accel_ane_cr_install(accel_ane_cr_pool *p, uint32_t group, uint64_t *handle)
{
    uint32_t i;
    if (handle) *handle = 0;
    if (!p || !handle) return ACCEL_E_NULL;
    if (p->disabled) return ACCEL_E_ANE_CR_DISABLED;
    for (i = 0; i < p->max; i++) {
        accel_ane_cr_slot *s = &p->slot[i];
        if (s->state != ACCEL_ANE_CR_AVAILABLE) continue;
        s->gen = (uint8_t)(s->gen + 1u); /* a stale handle of the old owner stops matching */
        s->state = ACCEL_ANE_CR_IN_USE;
        s->out_state = ACCEL_ANE_OUT_AVAILABLE;
        s->group = group;
        s->active = 0;
        s->has_ts = 0;
        s->last_ts = 0;
        *handle = ((uint64_t)s->gen << 8) | i;
        return ACCEL_OK;
    }
    return ACCEL_E_FULL;
}

ACCELDEF accel_status accel_ane_cr_trigger(accel_ane_cr_pool *p, uint64_t handle, uint64_t ts)
{
    accel_ane_cr_slot *s;
    if (!p) return ACCEL_E_NULL;
    s = accel__ane_cr_find(p, handle);
    if (p->disabled) {
        p->dropped++;
        return ACCEL_E_ANE_CR_DISABLED;
    }
    if (!s || s->state != ACCEL_ANE_CR_IN_USE) {
        p->dropped++; /* "in wrong state for trigger. trigger dropped." */
        return ACCEL_E_ANE_HANDLE;
    }
    if (s->has_ts && ts <= s->last_ts) return ACCEL_E_ANE_TIMESTAMP;
    if (s->out_state != ACCEL_ANE_OUT_AVAILABLE) return ACCEL_E_BUSY;
    s->last_ts = ts;
    s->has_ts = 1;
    s->out_state = ACCEL_ANE_OUT_IN_EXECUTION;
    p->triggers++;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_cr_recycle(accel_ane_cr_pool *p, uint64_t handle)
{
    accel_ane_cr_slot *s;
    if (!p) return ACCEL_E_NULL;
    s = accel__ane_cr_find(p, handle);
    if (!s || s->state != ACCEL_ANE_CR_IN_USE) return ACCEL_E_ANE_HANDLE;
    if (s->out_state != ACCEL_ANE_OUT_IN_EXECUTION) return ACCEL_E_STATE;
    s->out_state = ACCEL_ANE_OUT_AVAILABLE;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_cr_invalidate(accel_ane_cr_pool *p, uint64_t handle)
{
    accel_ane_cr_slot *s;
    if (!p) return ACCEL_E_NULL;
    s = accel__ane_cr_find(p, handle);
    if (!s || s->state != ACCEL_ANE_CR_IN_USE) return ACCEL_E_ANE_HANDLE;
    if (s->out_state != ACCEL_ANE_OUT_AVAILABLE) return ACCEL_E_BUSY; /* chained output in use */
    s->state = ACCEL_ANE_CR_INVALIDATING;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_cr_finish_invalidate(accel_ane_cr_pool *p, uint64_t handle)
{
    accel_ane_cr_slot *s;
    if (!p) return ACCEL_E_NULL;
    s = accel__ane_cr_find(p, handle);
    if (!s || s->state != ACCEL_ANE_CR_INVALIDATING) return ACCEL_E_ANE_HANDLE;
    s->state = ACCEL_ANE_CR_AVAILABLE;
    s->active = 0;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_cr_select(accel_ane_cr_pool *p, uint64_t handle)
{
    accel_ane_cr_slot *s;
    uint32_t i;
    if (!p) return ACCEL_E_NULL;
    s = accel__ane_cr_find(p, handle);
    if (!s || s->state != ACCEL_ANE_CR_IN_USE) return ACCEL_E_ANE_HANDLE;
    for (i = 0; i < p->max; i++)
        if (p->slot[i].state != ACCEL_ANE_CR_AVAILABLE && p->slot[i].group == s->group)
            p->slot[i].active = 0;
    s->active = 1;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_cr_force_disable(accel_ane_cr_pool *p, uint32_t disable)
{
    if (!p) return ACCEL_E_NULL;
    if (disable != 1) return ACCEL_E_ANE_FORCE_DISABLE;
    p->disabled = 1;
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.sched: scheduler */
ACCELDEF accel_status accel_ane_sched_init(accel_ane_sched *s, uint8_t max_inflight,
                                           uint32_t recover_ms, uint32_t min_gap_ms)
{
    unsigned i;
    if (!s) return ACCEL_E_NULL;
    if (max_inflight == 0 || max_inflight > ACCEL_ANE_SCHED_MAX_INFLIGHT) return ACCEL_E_ARG;
    ACCEL_MEMSET(s, 0, sizeof *s);
    for (i = 0; i < 8; i++) s->credit[i] = accel__ane_prty[i];
    s->max_inflight = max_inflight;
    s->deadline_ms = (uint32_t)ACCEL_ANE_DEADLINE_MS;
    s->recover_ms = recover_ms;
    s->min_gap_ms = min_gap_ms;
    s->ready = 1;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_sched_submit(accel_ane_sched *s, const accel_ane_job *j)
{
    unsigned p;
    if (!s || !j) return ACCEL_E_NULL;
    if (j->prio >= ACCEL_ANE_PRIORITY_LEVELS) return ACCEL_E_ANE_PRIORITY;
    if (j->tq == 0) return ACCEL_E_ANE_TQ_RANGE; /* task-queue id 0 is reserved */
    if (!s->ready) return ACCEL_E_ANE_NOT_READY;
    p = j->prio;
    if (s->count[p] >= ACCEL_ANE_SCHED_DEPTH) return ACCEL_E_FULL;
    ACCEL_MEMCPY(&s->q[p][((unsigned)s->head[p] + s->count[p]) % ACCEL_ANE_SCHED_DEPTH], j, sizeof *j);
    s->count[p]++;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_sched_dispatch(accel_ane_sched *s, uint32_t now, accel_ane_job *out)
{
    unsigned p, pick = 8, any = 0;
    if (!s || !out) return ACCEL_E_NULL;
    if (!s->ready) return ACCEL_E_ANE_NOT_READY;
    for (p = 0; p < 8; p++) any |= s->count[p];
    if (!any) return ACCEL_E_EMPTY;
    if (s->ninflight >= s->max_inflight) {
        s->throttled++; /* firmware overload: throttled, not dispatched */
        return ACCEL_E_BUSY;
    }
    for (p = 0; p < 8 && pick == 8; p++)
        if (s->count[p] && s->credit[p]) pick = p;
    if (pick == 8) { /* every waiting level spent its credit: refill all */
        for (p = 0; p < 8; p++) s->credit[p] = accel__ane_prty[p];
        for (p = 0; p < 8 && pick == 8; p++)
            if (s->count[p]) pick = p;
    }
    ACCEL_MEMCPY(out, &s->q[pick][s->head[pick]], sizeof *out);
    s->head[pick] = (uint8_t)((s->head[pick] + 1u) % ACCEL_ANE_SCHED_DEPTH);
    s->count[pick]--;
    s->credit[pick]--;
    out->start_ms = now;
    ACCEL_MEMCPY(&s->inflight[s->ninflight++], out, sizeof *out);
    return ACCEL_OK;
}

static void accel__ane_sched_remove(accel_ane_sched *s, unsigned i)
{
    for (; i + 1u < s->ninflight; i++) ACCEL_MEMCPY(&s->inflight[i], &s->inflight[i + 1u], sizeof s->inflight[i]);
    s->ninflight--;
}

ACCELDEF accel_status accel_ane_sched_complete(accel_ane_sched *s, uint32_t tag)
{
    unsigned i;
    if (!s) return ACCEL_E_NULL;
    for (i = 0; i < s->ninflight; i++)
        if (s->inflight[i].tag == tag) {
            accel__ane_sched_remove(s, i);
            return ACCEL_OK;
        }
    return ACCEL_E_ARG;
}

static void accel__ane_gate_start(accel_ane_sched *s, uint32_t now)
{
    s->recovering = 1;
    s->ready = 0;
    s->fault_pending = 0;
    s->recover_start = now;
    s->last_start = now;
    s->started_once = 1;
    s->recoveries++;
    s->ninflight = 0; /* outstanding commands cancelled */
}

ACCELDEF accel_status accel_ane_sched_fault(accel_ane_sched *s, uint32_t now)
{
    if (!s) return ACCEL_E_NULL;
    s->faults++;
    s->ready = 0;
    if (s->recovering ||
        (s->started_once && accel_time_diff(now, s->last_start) < (int32_t)s->min_gap_ms)) {
        s->fault_pending = 1; /* serialized behind the single gate */
        return ACCEL_OK;
    }
    accel__ane_gate_start(s, now);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_sched_tick(accel_ane_sched *s, uint32_t now, int abort_clears,
                                           uint32_t *aborted)
{
    unsigned i = 0;
    uint32_t n = 0;
    uint8_t lo = 255, hi = 0;
    if (aborted) *aborted = 0;
    if (!s) return ACCEL_E_NULL;
    while (i < s->ninflight) {
        accel_ane_job *j = &s->inflight[i];
        if (accel_time_diff(now, j->start_ms) >= (int32_t)s->deadline_ms) {
            if (j->tq < lo) lo = j->tq;
            if (j->tq > hi) hi = j->tq;
            accel__ane_sched_remove(s, i);
            n++;
        } else {
            i++;
        }
    }
    s->aborts += n;
    if (aborted) *aborted = n;
    if (n && !abort_clears) { /* escalate: reset notification over the span, then recovery */
        s->resets++;
        s->reset_first_tq = lo;
        s->reset_last_tq = hi;
        (void)accel_ane_sched_fault(s, now);
    }
    if (s->recovering && accel_time_diff(now, s->recover_start) >= (int32_t)s->recover_ms) {
        s->recovering = 0;
        if (!s->fault_pending) s->ready = 1;
    }
    if (!s->recovering && s->fault_pending &&
        accel_time_diff(now, s->last_start) >= (int32_t)s->min_gap_ms)
        accel__ane_gate_start(s, now);
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.kobj: kernel objects */
ACCELDEF accel_status accel_ane_msgq_mem_size(size_t depth, size_t width, size_t *bytes)
{
    if (!bytes) return ACCEL_E_NULL;
    *bytes = 0;
    if (depth == 0 || width == 0 || width > 0xFFFFu) return ACCEL_E_ARG;
    if (depth > ((size_t)-1) / (width + 2u)) return ACCEL_E_OVERFLOW;
    *bytes = depth * (width + 2u);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_msgq_init(accel_ane_msgq *q, void *buf, size_t buf_len, size_t width)
{
    if (!q || !buf) return ACCEL_E_NULL;
    if (width == 0 || width > 0xFFFFu) return ACCEL_E_ARG;
    q->width = width;
    return accel_ring_init(&q->ring, buf, buf_len, width + 2u);
}

ACCELDEF accel_status accel_ane_msgq_send(accel_ane_msgq *q, const void *msg, size_t len)
{
    uint8_t *slot;
    if (!q || (!msg && len)) return ACCEL_E_NULL;
    if (len > q->width) return ACCEL_E_TOO_LONG;
    if (accel_ring_full(&q->ring)) return ACCEL_E_FULL;
    /* build the slot in place: the ring's next slot is free memory we own */
    slot = q->ring.buf + ((q->ring.head + q->ring.count) % q->ring.cap) * q->ring.slot_size;
    accel_store_u16le(slot, (uint16_t)len);
    if (len) ACCEL_MEMCPY(slot + 2, msg, len);
    q->ring.count++;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_msgq_recv(accel_ane_msgq *q, void *msg, size_t cap, size_t *len)
{
    const uint8_t *slot;
    size_t n;
    if (len) *len = 0;
    if (!q || !msg || !len) return ACCEL_E_NULL;
    slot = (const uint8_t *)accel_ring_at(&q->ring, 0);
    if (!slot) return ACCEL_E_EMPTY;
    n = accel_load_u16le(slot);
    if (n > cap) return ACCEL_E_BUFFER_TOO_SMALL; /* kept: nothing is lost */
    if (n) ACCEL_MEMCPY(msg, slot + 2, n);
    *len = n;
    return accel_ring_pop(&q->ring, NULL);
}

ACCELDEF accel_status accel_ane_pool_init(accel_ane_pool *p, unsigned total)
{
    if (!p) return ACCEL_E_NULL;
    if (total == 0 || total > 32u) return ACCEL_E_ARG;
    p->used = 0;
    p->total = (uint8_t)total;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_pool_alloc(accel_ane_pool *p, unsigned *slot)
{
    unsigned i;
    if (!p || !slot) return ACCEL_E_NULL;
    for (i = 0; i < p->total; i++)
        if (!(p->used & ((uint32_t)1 << i))) {
            p->used |= (uint32_t)1 << i;
            *slot = i;
            return ACCEL_OK;
        }
    return ACCEL_E_FULL;
}

ACCELDEF accel_status accel_ane_pool_free(accel_ane_pool *p, unsigned slot)
{
    if (!p) return ACCEL_E_NULL;
    if (slot >= p->total || !(p->used & ((uint32_t)1 << slot))) return ACCEL_E_ARG;
    p->used &= ~((uint32_t)1 << slot);
    return ACCEL_OK;
}

ACCELDEF unsigned accel_ane_pool_available(const accel_ane_pool *p)
{
    unsigned i, n = 0;
    if (!p) return 0;
    for (i = 0; i < p->total; i++) n += !(p->used & ((uint32_t)1 << i));
    return n;
}

/* -------------------------------------------------------- @ane.bringup: bring-up */
static const char *const accel__ane_first_cmds[ACCEL_ANE_BU_FIRST_CMD_COUNT] = {
    "PRINT_ENABLE", "START", "PMU_BASE_SET", "TIME_SYNC", "CH_PROPERTY_WRITE",
    "RESOURCE_INFO_GET", "DEFAULT_SETTING_WRITE", "MCACHE_POWER_ON", "SHARED_EVENT_INFO_INIT"};

ACCELDEF accel_status accel_ane_check_boot_heap(uint32_t heap_bytes, uint32_t reserved_bytes)
{
    /* heap > 2 * reserved, without overflowing the product */
    if (reserved_bytes >= 0x80000000UL || heap_bytes <= 2u * reserved_bytes) return ACCEL_E_ANE_INVARIANT;
    return ACCEL_OK;
}

static const char *const accel__ane_channels[ACCEL_ANE_BU_CHANNELS] = {
    "SHAREDMALLOC", "TERMINAL", "BUF_H2T", "BUF_T2H", "IO", "IO_T2H", "DEBUG", "DATA_CHAIN_H2T"};

ACCELDEF const char *accel_ane_channel_name(unsigned i)
{
    return i < ACCEL_ANE_BU_CHANNELS ? accel__ane_channels[i] : "";
}

ACCELDEF const char *accel_ane_first_cmd_name(unsigned i)
{
    return i < ACCEL_ANE_BU_FIRST_CMD_COUNT ? accel__ane_first_cmds[i] : "";
}

ACCELDEF void accel_ane_bringup_init(accel_ane_bringup *b, uint8_t max_retries)
{
    if (!b) return;
    ACCEL_MEMSET(b, 0, sizeof *b);
    b->max_retries = max_retries;
}

ACCELDEF accel_status accel_ane_bringup_event(accel_ane_bringup *b, unsigned ev, uint32_t arg)
{
    if (!b) return ACCEL_E_NULL;
    if (ev > ACCEL_ANE_BU_EV_FIRST_CMD) return ACCEL_E_ARG;
    switch (b->state) {
    case ACCEL_ANE_BU_OFF:
        if (ev != ACCEL_ANE_BU_EV_POWER_ON) return ACCEL_E_STATE;
        b->state = ACCEL_ANE_BU_WAIT_ALIVE;
        return ACCEL_OK;
    case ACCEL_ANE_BU_WAIT_ALIVE:
        if (ev == ACCEL_ANE_BU_EV_SCRATCH7) {
            b->state = ACCEL_ANE_BU_WAIT_CHANNELS;
            return ACCEL_OK;
        }
        if (ev == ACCEL_ANE_BU_EV_TIMEOUT) {
            b->state = ACCEL_ANE_BU_FAILED;
            return ACCEL_E_TIMEOUT;
        }
        return ACCEL_E_ANE_HANDSHAKE;
    case ACCEL_ANE_BU_WAIT_CHANNELS:
        if (ev == ACCEL_ANE_BU_EV_SCRATCH7) {
            b->state = ACCEL_ANE_BU_WAIT_ACK;
            b->channels = 0;
            return ACCEL_OK;
        }
        if (ev == ACCEL_ANE_BU_EV_TIMEOUT) { /* no second wake: power-cycle, bounded */
            b->failures++;
            if (b->retries >= b->max_retries) {
                b->state = ACCEL_ANE_BU_FAILED;
                return ACCEL_E_TIMEOUT;
            }
            b->retries++;
            b->state = ACCEL_ANE_BU_WAIT_ALIVE;
            return ACCEL_OK;
        }
        return ACCEL_E_ANE_HANDSHAKE;
    case ACCEL_ANE_BU_WAIT_ACK:
        if (ev == ACCEL_ANE_BU_EV_CHANNEL) {
            if (arg >= ACCEL_ANE_BU_CHANNELS) return ACCEL_E_ARG;
            if (b->channels & (1u << arg)) return ACCEL_E_ANE_HANDSHAKE; /* resolved twice */
            b->channels = (uint8_t)(b->channels | (1u << arg));
            return ACCEL_OK;
        }
        if (ev == ACCEL_ANE_BU_EV_SCRATCH3) {
            /* the channel table is walked between the second and third handshakes */
            if (b->channels != 0xFFu || arg != ACCEL_ANE_BU_MAGIC1) return ACCEL_E_ANE_HANDSHAKE;
            b->state = ACCEL_ANE_BU_FIRST_CMDS;
            b->next_cmd = 0;
            return ACCEL_OK;
        }
        if (ev == ACCEL_ANE_BU_EV_TIMEOUT) {
            b->state = ACCEL_ANE_BU_FAILED;
            return ACCEL_E_TIMEOUT;
        }
        return ACCEL_E_ANE_HANDSHAKE;
    case ACCEL_ANE_BU_FIRST_CMDS:
        if (ev == ACCEL_ANE_BU_EV_FIRST_CMD && arg == b->next_cmd) {
            b->next_cmd++;
            if (b->next_cmd == ACCEL_ANE_BU_FIRST_CMD_COUNT) b->state = ACCEL_ANE_BU_READY;
            return ACCEL_OK;
        }
        if (ev == ACCEL_ANE_BU_EV_TIMEOUT) {
            b->state = ACCEL_ANE_BU_FAILED;
            return ACCEL_E_TIMEOUT;
        }
        return ACCEL_E_ANE_HANDSHAKE;
    case ACCEL_ANE_BU_READY:
        return ACCEL_E_STATE;
    default: /* FAILED: only a fresh power-on starts over */
        if (ev != ACCEL_ANE_BU_EV_POWER_ON) return ACCEL_E_STATE;
        b->state = ACCEL_ANE_BU_WAIT_ALIVE;
        b->retries = 0;
        return ACCEL_OK;
    }
}

#endif /* ACCEL_ANE_NO_MODEL */
/* -------------------------------------------------------- @ane.stats: statistics buffer */
ACCELDEF accel_status accel_ane_encode_run_stats(const accel_ane_stats_hdr *h,
                                                 const accel_ane_stats_engine *e, unsigned n,
                                                 uint8_t *out, size_t cap, size_t *len)
{
    unsigned i, k;
    size_t total;
    if (len) *len = 0;
    if (!h || !len || (n && !e)) return ACCEL_E_NULL;
    if (n > ACCEL_ANE_STATS_MAX_ENGINES) return ACCEL_E_ARG;
    if (!out || cap == 0) return ACCEL_OK; /* never mapped: no destination, nothing written */
    total = ACCEL_ANE_STATS_HDR_SIZE + (size_t)n * ACCEL_ANE_STATS_ENGINE_SIZE;
    if (cap < total) return ACCEL_E_BUFFER_TOO_SMALL;
    ACCEL_MEMSET(out, 0, total);
    accel_store_u16le(out, (uint16_t)ACCEL_ANE_STATS_MAGIC);
    accel_store_u64le(out + 0x04, h->timing);
    accel_store_u32le(out + 0x0c, h->word0c);
    accel_store_u32le(out + 0x18, h->word18);
    accel_store_u64le(out + 0x1c, h->counter);
    accel_store_u32le(out + 0x24, (uint32_t)(total - ACCEL_ANE_STATS_HDR_SIZE));
    for (i = 0; i < n; i++) {
        uint8_t *d = out + ACCEL_ANE_STATS_HDR_SIZE + (size_t)i * ACCEL_ANE_STATS_ENGINE_SIZE;
        accel_store_u32le(d, e[i].engine_id);
        accel_store_u32le(d + 4, e[i].type);
        accel_store_u32le(d + 8, e[i].call_index);
        accel_store_u32le(d + 12, e[i].engine_index);
        for (k = 0; k < 4; k++) accel_store_u32le(d + 16 + (size_t)4 * k, e[i].counters[k]);
    }
    *len = total;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_decode_run_stats(const uint8_t *in, size_t len, accel_ane_stats_hdr *h,
                                            unsigned *n)
{
    uint32_t area;
    if (n) *n = 0;
    if (!in || !h || !n) return ACCEL_E_NULL;
    if (len < ACCEL_ANE_STATS_HDR_SIZE) return ACCEL_E_TRUNCATED;
    if (accel_load_u16le(in) != ACCEL_ANE_STATS_MAGIC) return ACCEL_E_ANE_STATS_MAGIC;
    area = accel_load_u32le(in + 0x24);
    if (area % ACCEL_ANE_STATS_ENGINE_SIZE != 0 ||
        area / ACCEL_ANE_STATS_ENGINE_SIZE > ACCEL_ANE_STATS_MAX_ENGINES)
        return ACCEL_E_MALFORMED;
    if (len - ACCEL_ANE_STATS_HDR_SIZE < (size_t)area) return ACCEL_E_TRUNCATED;
    if (accel_load_u64le(in + 0x10) != 0) return ACCEL_E_MALFORMED; /* reserved, cleared */
    h->timing = accel_load_u64le(in + 0x04);
    h->word0c = accel_load_u32le(in + 0x0c);
    h->word18 = accel_load_u32le(in + 0x18);
    h->counter = accel_load_u64le(in + 0x1c);
    *n = (unsigned)(area / ACCEL_ANE_STATS_ENGINE_SIZE);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_stats_engine_at(const uint8_t *in, size_t len, unsigned i,
                                                accel_ane_stats_engine *e)
{
    accel_ane_stats_hdr h;
    unsigned n, k;
    const uint8_t *d;
    accel_status st;
    if (!e) return ACCEL_E_NULL;
    st = accel_ane_decode_run_stats(in, len, &h, &n);
    if (st != ACCEL_OK) return st;
    if (i >= n) return ACCEL_E_ARG;
    d = in + ACCEL_ANE_STATS_HDR_SIZE + (size_t)i * ACCEL_ANE_STATS_ENGINE_SIZE;
    e->engine_id = accel_load_u32le(d);
    e->type = accel_load_u32le(d + 4);
    e->call_index = accel_load_u32le(d + 8);
    e->engine_index = accel_load_u32le(d + 12);
    for (k = 0; k < 4; k++) e->counters[k] = accel_load_u32le(d + 16 + (size_t)4 * k);
    return ACCEL_OK;
}

#ifndef ACCEL_ANE_NO_MODEL
/* -------------------------------------------------------- @ane.doorbell: doorbell */
ACCELDEF accel_status accel_ane_doorbell_emit(accel_ane_fabric *f, uint64_t target, uint32_t bit)
{
    if (!f) return ACCEL_E_NULL;
    f->sysreg &= ~ACCEL_ANE_FAB_WINDOW; /* arm: open the store window */
    f->window_seen_open = 1;
    f->last_target = target;
    f->last_value = bit;
    f->stores++;
    f->sysreg |= f->response & (ACCEL_ANE_FAB_L2C_UNCORR | ACCEL_ANE_FAB_REJECT); /* dsb; isb */
    f->response = 0;
    if (f->sysreg & ACCEL_ANE_FAB_L2C_UNCORR) return ACCEL_E_ANE_INVARIANT; /* fatal */
    if (f->sysreg & ACCEL_ANE_FAB_REJECT) {
        f->sysreg &= ~(ACCEL_ANE_FAB_L2C_UNCORR | ACCEL_ANE_FAB_REJECT);
        f->sysreg |= ACCEL_ANE_FAB_WINDOW;
        return ACCEL_E_BUSY;
    }
    f->sysreg |= ACCEL_ANE_FAB_WINDOW; /* disarm */
    return ACCEL_OK;
}

ACCELDEF accel_status accel_ane_fabric_power_gate(accel_ane_fabric *f)
{
    if (!f) return ACCEL_E_NULL;
    if (!(f->sysreg & ACCEL_ANE_FAB_LINK) || (f->sysreg & ACCEL_ANE_FAB_LINK2)) return ACCEL_E_STATE;
    f->sysreg &= ~(ACCEL_ANE_FAB_PATH_EN | ACCEL_ANE_FAB_LINK | ACCEL_ANE_FAB_LINK2);
    return ACCEL_OK;
}

/* -------------------------------------------------------- @ane.dispatch: fast-path dispatcher */
ACCELDEF accel_status accel_ane_fw_model_init(accel_ane_fw_model *fw, uint32_t max_cache_requests)
{
    accel_status st;
    if (!fw) return ACCEL_E_NULL;
    ACCEL_MEMSET(fw, 0, sizeof *fw);
    st = accel_ane_cr_init(&fw->cr, max_cache_requests);
    if (st != ACCEL_OK) return st;
    accel_ane_xl_fsm_init(&fw->loop);
    return accel_ane_xl_fsm_arm(&fw->loop);
}

static int accel__ane_bit(const uint8_t *m, uint32_t i) { return (m[i >> 3] >> (i & 7u)) & 1; }
static void accel__ane_setbit(uint8_t *m, uint32_t i, int v)
{
    if (v) m[i >> 3] = (uint8_t)(m[i >> 3] | (1u << (i & 7u)));
    else m[i >> 3] = (uint8_t)(m[i >> 3] & ~(1u << (i & 7u)));
}

ACCELDEF accel_status accel_ane_fw_model_program(accel_ane_fw_model *fw, uint32_t program_id, int loaded,
                                           int running)
{
    if (!fw) return ACCEL_E_NULL;
    if (program_id >= ACCEL_ANE_PROGRAM_ID_LIMIT) return ACCEL_E_ANE_PROGRAM_ID;
    if (running && !loaded) return ACCEL_E_STATE;
    accel__ane_setbit(fw->loaded, program_id, loaded);
    accel__ane_setbit(fw->running, program_id, running);
    return ACCEL_OK;
}

static accel_status accel__ane_fw_run(accel_ane_fw_model *fw)
{
    accel_status st = accel_ane_xl_fsm_event(&fw->loop, ACCEL_ANE_XL_EV_DISPATCH);
    if (st == ACCEL_OK) fw->accepted++;
    return st;
}

ACCELDEF accel_status accel_ane_fw_model_dispatch(accel_ane_fw_model *fw, const uint8_t *msg, size_t len)
{
    uint32_t id;
    accel_status st;
    if (!fw || !msg) return ACCEL_E_NULL;
    if (fw->faulted) return ACCEL_E_ANE_INVARIANT;
    st = accel_ane_decode_xl_hdr(msg, len, &id);
    if (st != ACCEL_OK) {
        fw->rejected++;
        return st;
    }
    fw->last_id = id;
    if (!accel_ane_xl_accepts(id)) { /* default arm: log and assert */
        fw->faulted = 1;
        return ACCEL_E_ANE_UNSUPPORTED_CMD;
    }
    switch (id) {
    case ACCEL_ANE_WIRE_PROCEDURE_CALL:
    case ACCEL_ANE_WIRE_PROCEDURE_CALL_WITH_BARS:
    case ACCEL_ANE_WIRE_PROCEDURE_CALL_WITH_EVENTS:
    case ACCEL_ANE_WIRE_PROCEDURE_CALL_VARIANT: {
        accel_ane_proc_call pc;
        st = accel_ane_decode_xl_proc_call(msg, len, &pc);
        if (st == ACCEL_OK && !accel__ane_bit(fw->loaded, pc.program_id)) st = ACCEL_E_ANE_PROGRAM_ID;
        if (st != ACCEL_OK) {
            fw->rejected++;
            return st;
        }
        if (!accel__ane_bit(fw->running, pc.program_id)) {
            fw->dropped++;
            return ACCEL_E_ANE_NOT_RUNNING;
        }
        if (fw->loop.state != ACCEL_ANE_XL_RUN) return accel_ane_xl_fsm_event(&fw->loop, ACCEL_ANE_XL_EV_DISPATCH);
        return accel__ane_fw_run(fw);
    }
    case ACCEL_ANE_WIRE_CACHE_REQUEST_TRIGGER:
    case ACCEL_ANE_WIRE_CACHE_REQUEST_SUBMIT: {
        accel_ane_trigger t;
        st = accel_ane_decode_xl_trigger(msg, len, &t);
        if (st != ACCEL_OK) {
            fw->rejected++;
            return st;
        }
        if (fw->loop.state != ACCEL_ANE_XL_RUN) return accel_ane_xl_fsm_event(&fw->loop, ACCEL_ANE_XL_EV_DISPATCH);
        st = accel_ane_cr_trigger(&fw->cr, t.cache_handler, t.exec_timestamp);
        if (st != ACCEL_OK) {
            fw->dropped++;
            return st;
        }
        return accel__ane_fw_run(fw);
    }
    case ACCEL_ANE_WIRE_BACK_CHANNEL_RPC: {
        const uint8_t *p;
        uint32_t n;
        st = accel_ane_decode_rpc(msg + ACCEL_ANE_XL_HDR_SIZE, len - ACCEL_ANE_XL_HDR_SIZE, &p, &n);
        if (st != ACCEL_OK) {
            fw->rejected++;
            return st;
        }
        fw->rpcs++;
        return ACCEL_OK;
    }
    case ACCEL_ANE_WIRE_RETURN_PROCESS_ID:
        if (len != 12u) {
            fw->rejected++;
            return len < 12u ? ACCEL_E_TRUNCATED : ACCEL_E_MALFORMED;
        }
        if (accel_load_u32le(msg + 8) >= 0x80000000UL) {
            fw->rejected++;
            return ACCEL_E_ANE_PROCESS_ID;
        }
        fw->pids_returned++;
        return ACCEL_OK;
    default: /* CH_DATA_FILE_LOAD2, guarded by an engine flag */
        if (!fw->data_file_load_enabled) {
            fw->rejected++;
            return ACCEL_E_STATE;
        }
        fw->accepted++;
        return ACCEL_OK;
    }
}

ACCELDEF accel_status accel_ane_fw_model_complete(accel_ane_fw_model *fw)
{
    if (!fw) return ACCEL_E_NULL;
    if (fw->loop.state != ACCEL_ANE_XL_EXEC && fw->loop.state != ACCEL_ANE_XL_EXEC_SECURE)
        return ACCEL_E_STATE;
    return accel_ane_xl_fsm_event(&fw->loop, ACCEL_ANE_XL_EV_DRAIN);
}
/* ane: end of implementation */
#endif /* ACCEL_ANE_NO_MODEL */
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_ANE */

/* ============================================================================================
 * SECTION: mac (implementation) @mac
 * ============================================================================================ */
#ifndef ACCEL_NO_MAC
/* The register-blocked kernels written for microcontrollers: every op with ACCEL_MAC_MCU; on
 * hosts without explicit SIMD, conv2d and FC/GEMM of fewer than 4 rows, where the host loops
 * need the vectorizer (-O3) and these compile to blocked code at -O2. */
#if ACCEL_MAC_MCU || (ACCEL_MAC_FAST && ACCEL_MAC_SIMD == 0)
#define ACCEL__MAC_BLK 1
#else
#define ACCEL__MAC_BLK 0
#endif
#if ACCEL_MAC_SIMD == 1 || ACCEL_MAC_SIMD == 2
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__)
/* g++ 12 warns inside its own AVX-512 headers (the "__Y = __Y" of _mm512_undefined_*) once
 * they are inlined; the warnings are located in the header, so silencing them here suffices */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h> /* hosted x86 only (not a freestanding header) */
#endif
#endif
#if ACCEL_MAC_SIMD == 3
#include <arm_neon.h>
#endif
#ifdef __cplusplus
extern "C" {
#endif
/* Two's-complement conversions written so that no implementation-defined step remains;
 * compilers reduce them to nothing. */
static int32_t accel__mac_u2s(uint32_t v)
{
    return v <= 0x7FFFFFFFUL ? (int32_t)v : (int32_t)(v - 0x80000000UL) - INT32_MAX - 1;
}
static int64_t accel__mac_u2s64(uint64_t v)
{
    return v <= 0x7FFFFFFFFFFFFFFFULL ? (int64_t)v
                                      : (int64_t)(v - 0x8000000000000000ULL) - INT64_MAX - 1;
}

/* -------------------------------------------------------- @mac.quant: requantization helpers */
/* Arithmetic (flooring) right shifts without relying on >> of negative values. */
static int32_t accel__mac_asr(int32_t x, int32_t s)
{
    return x < 0 ? ~(int32_t)(~x >> s) : (int32_t)(x >> s);
}
static int64_t accel__mac_asr64(int64_t x, int32_t s)
{
    return x < 0 ? ~(int64_t)(~x >> s) : (int64_t)(x >> s);
}

ACCELDEF int32_t accel_mac_saturating_rounding_doubling_high_mul(int32_t a, int32_t b)
{
    int64_t ab, nudge;
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    ab = (int64_t)a * (int64_t)b;
    nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
    /* gemmlowp divides (truncation towards zero), it does not shift */
    return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

ACCELDEF int32_t accel_mac_rounding_divide_by_power_of_two(int32_t x, int32_t exponent)
{
    int32_t mask, remainder, threshold;
    if (exponent <= 0) return x;
    if (exponent > 31) exponent = 31;
    mask = (int32_t)((((uint32_t)1) << exponent) - 1u);
    remainder = x & mask;
    threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return accel__mac_asr(x, exponent) + (remainder > threshold ? 1 : 0);
}

ACCELDEF int32_t accel_mac_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int32_t shift)
{
    if (shift > 31) shift = 31;
    if (shift < -31) shift = -31;
    if (shift > 0) x = accel__mac_u2s((uint32_t)x << shift);
    return accel_mac_rounding_divide_by_power_of_two(accel_mac_saturating_rounding_doubling_high_mul(x, multiplier), shift > 0 ? 0 : -shift);
}

ACCELDEF int32_t accel_mac_multiply_by_quantized_multiplier_single(int32_t x, int32_t multiplier, int32_t shift)
{
    int32_t total;
    int64_t r;
    if (shift > 31) shift = 31;
    if (shift < -31) shift = -31;
    total = 31 - shift;
    r = (int64_t)x * (int64_t)multiplier;
    if (total > 0) r = accel__mac_asr64(r + ((int64_t)1 << (total - 1)), total);
    if (r > INT32_MAX) return INT32_MAX;
    if (r < INT32_MIN) return INT32_MIN;
    return (int32_t)r;
}

#ifndef ACCEL_MAC_NO_FLOAT
ACCELDEF accel_status accel_mac_quantize_multiplier(double real, int32_t *multiplier,
                                                    int32_t *shift)
{
    double q = real, mag, r, frac;
    int32_t e = 0;
    int64_t t;
    if (!multiplier || !shift) return ACCEL_E_NULL;
    if (real != real || real - real != 0.0) return ACCEL_E_ARG; /* NaN, infinity */
    *multiplier = 0;
    *shift = 0;
    if (real == 0.0) return ACCEL_OK;
    /* frexp without <math.h>: scaling by 2 is exact */
    mag = q < 0 ? -q : q;
    while (mag >= 1.0) { q /= 2.0; mag /= 2.0; e++; }
    while (mag < 0.5) { q *= 2.0; mag *= 2.0; e--; }
    r = q * 2147483648.0; /* exact */
    t = (int64_t)r;       /* |r| < 2^31: exact truncation, then std::round's half away */
    frac = r - (double)t;
    if (frac >= 0.5) t++;
    else if (frac <= -0.5) t--;
    if (t == ((int64_t)1 << 31)) { t /= 2; e++; }
    if (e < -31) { e = 0; t = 0; }
    if (e > 31) return ACCEL_E_ARG; /* no int32 shift can represent it */
    *multiplier = (int32_t)t;
    *shift = e;
    return ACCEL_OK;
}

static int32_t accel__mac_roundf(float x)
{
    /* round half away from zero of a value already clamped to |x| <= 2^20 */
    int32_t t = (int32_t)x;
    float f = x - (float)t;
    if (f >= 0.5f) t++;
    else if (f <= -0.5f) t--;
    return t;
}

ACCELDEF accel_status accel_mac_quantize_f32(const float *in, size_t n, float scale,
                                             int32_t zero_point, accel_mac_dtype dt, void *out)
{
    int32_t lo = dt == ACCEL_MAC_UINT8 ? 0 : -128, hi = lo + 255;
    uint8_t *o = (uint8_t *)out;
    size_t i;
    if (!in || !out) return ACCEL_E_NULL;
    if (dt != ACCEL_MAC_INT8 && dt != ACCEL_MAC_UINT8) return ACCEL_E_MAC_DTYPE;
    if (!(scale > 0.0f) || scale - scale != 0.0f) return ACCEL_E_ARG;
    if (zero_point < lo || zero_point > hi) return ACCEL_E_MAC_OFFSET;
    for (i = 0; i < n; i++) {
        float x = in[i] / scale;
        int32_t v;
        if (x != x) x = 0.0f; /* NaN: the zero point (TFLite: undefined) */
        if (x > 1048576.0f) x = 1048576.0f;
        if (x < -1048576.0f) x = -1048576.0f;
        v = accel__mac_roundf(x) + zero_point;
        v = v < lo ? lo : v > hi ? hi : v;
        o[i] = (uint8_t)(v & 0xFF);
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_mac_dequantize_f32(const void *in, size_t n, float scale,
                                               int32_t zero_point, accel_mac_dtype dt, float *out)
{
    const uint8_t *p = (const uint8_t *)in;
    int32_t lo = dt == ACCEL_MAC_UINT8 ? 0 : -128;
    size_t i;
    if (!in || !out) return ACCEL_E_NULL;
    if (dt != ACCEL_MAC_INT8 && dt != ACCEL_MAC_UINT8) return ACCEL_E_MAC_DTYPE;
    if (zero_point < lo || zero_point > lo + 255) return ACCEL_E_MAC_OFFSET;
    for (i = 0; i < n; i++) {
        int32_t v = (int32_t)p[i];
        if (dt == ACCEL_MAC_INT8 && v > 127) v -= 256;
        out[i] = scale * (float)(v - zero_point);
    }
    return ACCEL_OK;
}
#endif /* ACCEL_MAC_NO_FLOAT */

/* ---- @mac.fc: validation ---- */
static accel_status accel__mac_check_act(accel_mac_dtype dt, int32_t mn, int32_t mx)
{
    int32_t lo = dt == ACCEL_MAC_UINT8 ? 0 : -128;
    if (dt != ACCEL_MAC_INT8 && dt != ACCEL_MAC_UINT8) return ACCEL_E_MAC_DTYPE;
    if (mn < lo || mx > lo + 255 || mn > mx) return ACCEL_E_MAC_ACTIVATION;
    return ACCEL_OK;
}

/* An input/filter offset is minus a zero point of the type. */
static int accel__mac_offset_ok(accel_mac_dtype dt, int32_t off)
{
    return dt == ACCEL_MAC_UINT8 ? (off >= -255 && off <= 0) : (off >= -127 && off <= 128);
}

static accel_status accel__mac_check_q(const accel_mac_quant *q, uint32_t channels,
                                       const int32_t *bias, size_t bias_len)
{
    size_t i, n;
    int32_t lo;
    accel_status st;
    if (!q || !q->multiplier || !q->shift) return ACCEL_E_NULL;
    st = accel__mac_check_act(q->dtype, q->act_min, q->act_max);
    if (st != ACCEL_OK) return st;
    if (q->rounding != ACCEL_MAC_ROUND_DOUBLE && q->rounding != ACCEL_MAC_ROUND_SINGLE)
        return ACCEL_E_MAC_ROUNDING;
    lo = q->dtype == ACCEL_MAC_UINT8 ? 0 : -128;
    if (!accel__mac_offset_ok(q->dtype, q->input_offset) ||
        !accel__mac_offset_ok(q->dtype, q->filter_offset) || q->output_offset < lo ||
        q->output_offset > lo + 255)
        return ACCEL_E_MAC_OFFSET;
    if (q->count == 0) return ACCEL_E_ZERO_LENGTH;
    if (q->count != 1 && q->count < channels) return ACCEL_E_MAC_CHANNELS;
    if (bias && bias_len < channels) return ACCEL_E_MAC_CHANNELS;
    n = q->count;
    if (n > channels) n = (size_t)channels;
    for (i = 0; i < n; i++) {
        if (q->multiplier[i] < 0) return ACCEL_E_MAC_MULTIPLIER;
        if (q->shift[i] < -31 || q->shift[i] > (q->rounding ? 30 : 31)) return ACCEL_E_MAC_SHIFT;
    }
    return ACCEL_OK;
}

/* *acc *= v; 0 on size_t overflow */
static int accel__mac_mul(size_t *acc, uint32_t v)
{
    size_t sv = (size_t)v;
    if ((uint32_t)sv != v) return 0;
    if (sv != 0 && *acc > (size_t)-1 / sv) return 0;
    *acc *= sv;
    return 1;
}

/* Requantize one accumulator (bias already added) of output channel ch to a stored byte. */
static uint8_t accel__mac_out(uint32_t acc, const accel_mac_quant *q, size_t ch)
{
    size_t i = q->count == 1 ? 0 : ch;
    int32_t v = accel__mac_u2s(acc), off = q->output_offset;
    v = q->rounding == ACCEL_MAC_ROUND_SINGLE ? accel_mac_multiply_by_quantized_multiplier_single(v, q->multiplier[i], q->shift[i])
                                              : accel_mac_multiply_by_quantized_multiplier(v, q->multiplier[i], q->shift[i]);
    /* clamp(v + off) without an int32 overflow at the extremes */
    if (v > q->act_max - off) v = q->act_max;
    else if (v < q->act_min - off) v = q->act_min;
    else v += off;
    return (uint8_t)(v & 0xFF);
}

#if ACCEL_MAC_FAST
/* Double-rounding requantization written without branches (selects only), so that a loop
 * over channels vectorizes; the same arithmetic as accel_mac_multiply_by_quantized_multiplier + clamp. */
static uint8_t accel__mac_rq1(uint32_t acc, int32_t m, int32_t sh, int32_t off, int32_t lo,
                              int32_t hi)
{
    int32_t ls = sh > 0 ? sh : 0, rs = sh > 0 ? 0 : -sh, x, h, mask, v;
    int64_t ab, t;
    x = accel__mac_u2s(acc << ls);
    ab = (int64_t)x * (int64_t)m;
    t = ab + (ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30)));
    h = (int32_t)accel__mac_asr64(t + (t < 0 ? (int64_t)0x7FFFFFFF : 0), 31); /* t / 2^31 */
    ACCEL_ASSERT(m >= 0); /* multipliers are checked >= 0, so x * m never saturates here */
    mask = (int32_t)(((uint32_t)1 << rs) - 1u);
    v = accel__mac_asr(h, rs) + ((h & mask) > (mask >> 1) + (h < 0 ? 1 : 0) ? 1 : 0);
    v = v > hi - off ? hi : v < lo - off ? lo : v + off;
    return (uint8_t)(v & 0xFF);
}

/* Requantize acc[0..n) of output channels ch0.. into out[0..n). */
static void accel__mac_requant_n(const uint32_t *acc, size_t n, const accel_mac_quant *q,
                                 size_t ch0, uint8_t *out)
{
    size_t j;
    int32_t off = q->output_offset, lo = q->act_min, hi = q->act_max;
    if (q->rounding != ACCEL_MAC_ROUND_DOUBLE) {
        for (j = 0; j < n; j++) out[j] = accel__mac_out(acc[j], q, ch0 + j);
    } else if (q->count == 1) {
        int32_t m = q->multiplier[0], sh = q->shift[0];
        for (j = 0; j < n; j++) out[j] = accel__mac_rq1(acc[j], m, sh, off, lo, hi);
    } else {
        const int32_t *mp = q->multiplier + ch0, *sp = q->shift + ch0;
        for (j = 0; j < n; j++) out[j] = accel__mac_rq1(acc[j], mp[j], sp[j], off, lo, hi);
    }
}
#endif

/* ---- @mac.fc: dot products. Data is read as int8; uint8 data is turned into the int8 domain by
 * XOR 0x80 (fx = -128) with the offset raised by 128, so (x ^ fx) + off is the TFLite value
 * x + offset for both types. Products are int16 x int16, which compilers map onto
 * multiply-add instructions; each chunk of at most 32768 terms cannot overflow int32. ---- */
#define ACCEL__MAC_CHUNK 32768u
static uint32_t accel__mac_dot(const int8_t *x, const int8_t *w, size_t n, int32_t fx, int32_t xo,
                               int32_t wo)
{
    uint32_t total = 0;
    while (n > 0) {
        size_t m = n < ACCEL__MAC_CHUNK ? n : ACCEL__MAC_CHUNK, k;
        int32_t acc = 0;
        /* cppcheck-suppress knownConditionTrueFalse ; m = min(n, CHUNK) with n > 0 is at least 1 */
        for (k = 0; k < m; k++)
            acc += (int32_t)(int16_t)((x[k] ^ fx) + xo) * (int16_t)((w[k] ^ fx) + wo);
        total += (uint32_t)acc;
        x += m;
        w += m;
        n -= m;
    }
    return total;
}

#if ACCEL_MAC_FAST
/* Four filter rows (stride ws) against one input row: the input is loaded once. */
static void accel__mac_dot4(const int8_t *x, const int8_t *w, size_t ws, size_t n, int32_t fx,
                            int32_t xo, int32_t wo, uint32_t *out)
{
    const int8_t *w0 = w, *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
    while (n > 0) {
        size_t m = n < ACCEL__MAC_CHUNK ? n : ACCEL__MAC_CHUNK, k;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (k = 0; k < m; k++) {
            int32_t xv = (int16_t)((x[k] ^ fx) + xo);
            a0 += xv * (int16_t)((w0[k] ^ fx) + wo);
            a1 += xv * (int16_t)((w1[k] ^ fx) + wo);
            a2 += xv * (int16_t)((w2[k] ^ fx) + wo);
            a3 += xv * (int16_t)((w3[k] ^ fx) + wo);
        }
        out[0] += (uint32_t)a0;
        out[1] += (uint32_t)a1;
        out[2] += (uint32_t)a2;
        out[3] += (uint32_t)a3;
        x += m;
        w0 += m;
        w1 += m;
        w2 += m;
        w3 += m;
        n -= m;
    }
}
#endif

#if ACCEL_MAC_FAST
/* FC/GEMM fast path: uint8 x int8 products, the shape of x86 VNNI (vpdpbusd) and Arm
 * SDOT/USDOT, with the offsets hoisted out of the loop. With xu = x ^ fx ^ 0x80 (0..255),
 * ws = w ^ fx (-128..127), a = xo - 128: (x + offset)(w + offset) summed over k equals
 * sum xu*ws + wo*sum xu + a*sum ws + k*a*wo, all modulo 2^32. */
static void accel__mac_wsum4(const int8_t *w, size_t ws, size_t n, int32_t fx, uint32_t *s)
{
    size_t r, k;
    for (r = 0; r < 4; r++) {
        uint32_t t = 0;
        const int8_t *p = w + r * ws;
        for (k = 0; k < n; k++) {
            int32_t v = (int8_t)(p[k] ^ fx);
            t += (uint32_t)v;
        }
        s[r] = t;
    }
}

/* accel__mac_rows4 for two input rows at once (x and x + xs): the weight loads are shared. */
static void accel__mac_rows4x2(const int8_t *x, size_t xs, const int8_t *w, size_t ws, size_t n,
                               int32_t fx, int32_t xo, int32_t wo, const uint32_t *wsum,
                               uint32_t *out0, uint32_t *out1)
{
    const int8_t *x1 = x + xs, *w0 = w, *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
    int32_t xm = fx ^ -128, a = xo - 128;
    uint32_t xsum0 = 0, xsum1 = 0, r;
    size_t left = n, k;
    while (left > 0) {
        size_t m = left < ACCEL__MAC_CHUNK ? left : ACCEL__MAC_CHUNK;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        for (k = 0; k < m; k++) {
            int32_t u = (uint8_t)(x[k] ^ xm), v = (uint8_t)(x1[k] ^ xm);
            int32_t v0 = (int8_t)(w0[k] ^ fx), v1 = (int8_t)(w1[k] ^ fx);
            int32_t v2 = (int8_t)(w2[k] ^ fx), v3 = (int8_t)(w3[k] ^ fx);
            a0 += u * v0;
            a1 += u * v1;
            a2 += u * v2;
            a3 += u * v3;
            b0 += v * v0;
            b1 += v * v1;
            b2 += v * v2;
            b3 += v * v3;
        }
        out0[0] += (uint32_t)a0;
        out0[1] += (uint32_t)a1;
        out0[2] += (uint32_t)a2;
        out0[3] += (uint32_t)a3;
        out1[0] += (uint32_t)b0;
        out1[1] += (uint32_t)b1;
        out1[2] += (uint32_t)b2;
        out1[3] += (uint32_t)b3;
        if (wo != 0)
            for (k = 0; k < m; k++) {
                xsum0 += (uint8_t)(x[k] ^ xm);
                xsum1 += (uint8_t)(x1[k] ^ xm);
            }
        x += m;
        x1 += m;
        w0 += m;
        w1 += m;
        w2 += m;
        w3 += m;
        left -= m;
    }
    for (r = 0; r < 4; r++) {
        uint32_t c = (uint32_t)a * wsum[r] + (uint32_t)n * (uint32_t)a * (uint32_t)wo;
        out0[r] += (uint32_t)wo * xsum0 + c;
        out1[r] += (uint32_t)wo * xsum1 + c;
    }
}

static void accel__mac_rows4(const int8_t *x, const int8_t *w, size_t ws, size_t n, int32_t fx,
                             int32_t xo, int32_t wo, const uint32_t *wsum, uint32_t *out)
{
    const int8_t *w0 = w, *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
    int32_t xm = fx ^ -128, a = xo - 128;
    uint32_t xsum = 0, r;
    size_t left = n;
    size_t k;
    while (left > 0) {
        size_t m = left < ACCEL__MAC_CHUNK ? left : ACCEL__MAC_CHUNK;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (k = 0; k < m; k++) {
            int32_t xv = (uint8_t)(x[k] ^ xm);
            a0 += xv * (int8_t)(w0[k] ^ fx);
            a1 += xv * (int8_t)(w1[k] ^ fx);
            a2 += xv * (int8_t)(w2[k] ^ fx);
            a3 += xv * (int8_t)(w3[k] ^ fx);
        }
        out[0] += (uint32_t)a0;
        out[1] += (uint32_t)a1;
        out[2] += (uint32_t)a2;
        out[3] += (uint32_t)a3;
        if (wo != 0)
            for (k = 0; k < m; k++) xsum += (uint8_t)(x[k] ^ xm);
        x += m;
        w0 += m;
        w1 += m;
        w2 += m;
        w3 += m;
        left -= m;
    }
    for (r = 0; r < 4; r++)
        out[r] += (uint32_t)wo * xsum + (uint32_t)a * wsum[r] +
                  (uint32_t)n * (uint32_t)a * (uint32_t)wo;
}
#endif

/* Accumulate rows [n0, n0+nr) of w (row stride ws) against x into acc[0..nr). */
static void accel__mac_dot_rows(const int8_t *x, const int8_t *w, size_t ws, size_t nr, size_t n,
                                int32_t fx, int32_t xo, int32_t wo, uint32_t *acc)
{
    size_t r = 0;
#if ACCEL_MAC_FAST
    for (; r + 4 <= nr; r += 4) accel__mac_dot4(x, w + r * ws, ws, n, fx, xo, wo, acc + r);
#endif
    for (; r < nr; r++) acc[r] += accel__mac_dot(x, w + r * ws, n, fx, xo, wo);
}

#if ACCEL_MAC_SIMD == 1 || ACCEL_MAC_SIMD == 2
/* ---- @mac.fc: explicit x86 SIMD for FC / GEMM. Same decomposition as accel__mac_rows4: with
 * xu = x ^ xm (0..255) and ws = w ^ fx (-128..127), the tile sums D = sum xu*ws; the weight
 * and input sums come from byte sums (psadbw); everything is then combined modulo 2^32 exactly
 * as the portable path does, so results are bit-identical. ---- */
#ifndef ACCEL__MAC_AI /* scripts/coverage.sh makes them plain functions */
#define ACCEL__MAC_AI static __inline__ __attribute__((always_inline))
#endif
#if ACCEL_MAC_SIMD == 2
/* AVX-512 VNNI: vpdpbusd multiplies u8 x s8 and adds groups of 4 into int32 lanes, wrapping
 * (the non-saturating form), which is the modulo-2^32 sum we want. Up to 4 input rows share
 * each weight load and 4 weight rows share each input load: 16 accumulators. */
#define ACCEL__MAC_TILE_NC 4u
/* acc + vpdpbusd(a (u8), b (s8)). GCC 12 keeps each accumulator of the intrinsic in two
 * registers and copies (or spills) it around every vpdpbusd of an unrolled loop; the same
 * instruction in inline asm with the accumulator tied ("+v") allocates cleanly. Clang and
 * GCC 13+ keep the intrinsic. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
ACCEL__MAC_AI __m512i accel__mac_z_dp(__m512i acc, __m512i a, __m512i b)
{
    __asm__("vpdpbusd {%2, %1, %0|%0, %1, %2}" : "+v"(acc) : "v"(a), "vm"(b));
    return acc;
}
#else
#define accel__mac_z_dp(acc, a, b) _mm512_dpbusd_epi32((acc), (a), (b))
#endif

/* A masked vpgatherdd (lanes outside m zero) of dwords at p + idx * S (S 1 or 4). At -O0 GCC
 * makes the intrinsic a macro whose mask conversion -Wsign-conversion flags, hence a function
 * with that warning off. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
ACCEL__MAC_AI __m512i accel__mac_z_gather1(__mmask16 m, __m512i idx, const void *p)
{
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, idx, p, 1);
}
ACCEL__MAC_AI __m512i accel__mac_z_gather4(__mmask16 m, __m512i idx, const void *p)
{
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, idx, p, 4);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* Lanes [0, r) of a 64-byte block (1 <= r <= 63). */
static __mmask64 accel__mac_z_mask(size_t r)
{
    return (__mmask64)(~0ULL >> (64u - (unsigned)r));
}

ACCEL__MAC_AI __m128i accel__mac_z_hsum4(__m512i a, __m512i b, __m512i c, __m512i d)
{
    /* per 128-bit lane: [a0+a2, b0+b2, a1+a3, b1+b3], then [sa, sb, sc, sd] */
    __m512i ab = _mm512_add_epi32(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
    __m512i cd = _mm512_add_epi32(_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
    __m512i s = _mm512_add_epi32(_mm512_unpacklo_epi64(ab, cd), _mm512_unpackhi_epi64(ab, cd));
    __m256i t = _mm256_add_epi32(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1));
    return _mm_add_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
}

/* sum of (p[k] ^ flip) as uint8 over n bytes, modulo 2^32 */
static uint32_t accel__mac_usum(const int8_t *p, size_t n, int32_t flip)
{
    __m512i f = _mm512_set1_epi8((char)(flip & 0xFF)), z = _mm512_setzero_si512(), s = z;
    size_t k = 0;
    for (; k + 64u <= n; k += 64u)
        s = _mm512_add_epi64(s, _mm512_sad_epu8(_mm512_xor_si512(_mm512_loadu_si512(p + k), f), z));
    if (k < n) {
        __mmask64 m = accel__mac_z_mask(n - k);
        __m512i v = _mm512_maskz_mov_epi8(m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, p + k), f));
        s = _mm512_add_epi64(s, _mm512_sad_epu8(v, z));
    }
    return (uint32_t)(unsigned long long)_mm512_reduce_add_epi64(s);
}

/* lane r of d[c] = sum_k (x_c[k] ^ xm) * (w_r[k] ^ fx) for NC input rows (stride xs) and 4
 * weight rows (stride ws), modulo 2^32. NC is a constant after inlining. The accumulators are
 * named variables, not an array (GCC keeps an array of vectors in memory at -O2). */
#define ACCEL__MAC_ZT_LD(P) _mm512_loadu_si512(P)
#define ACCEL__MAC_ZT_LDM(P) _mm512_maskz_loadu_epi8(m, P)
#define ACCEL__MAC_ZT(R, LD)                                                                     \
    do {                                                                                         \
        wv = _mm512_xor_si512(LD(w + (R) * ws + k), wf);                                         \
        a0##R = accel__mac_z_dp(a0##R, x0, wv);                                                  \
        if (NC > 1) a1##R = accel__mac_z_dp(a1##R, x1, wv);                                      \
        if (NC > 2) a2##R = accel__mac_z_dp(a2##R, x2, wv);                                      \
        if (NC > 3) a3##R = accel__mac_z_dp(a3##R, x3, wv);                                      \
    } while (0)
ACCEL__MAC_AI void accel__mac_tile(const int8_t *x, size_t xs, const int8_t *w, size_t ws,
                                   size_t n, int32_t xm, int32_t fx, __m128i *d, const size_t NC)
{
    __m512i a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33;
    __m512i x0, x1, x2, x3, wv;
    __m512i xf = _mm512_set1_epi8((char)(xm & 0xFF)), wf = _mm512_set1_epi8((char)(fx & 0xFF));
    size_t k = 0;
    a00 = a01 = a02 = a03 = a10 = a11 = a12 = a13 = _mm512_setzero_si512();
    a20 = a21 = a22 = a23 = a30 = a31 = a32 = a33 = x1 = x2 = x3 = a00;
    for (; k + 64u <= n; k += 64u) {
        x0 = _mm512_xor_si512(_mm512_loadu_si512(x + k), xf);
        if (NC > 1) x1 = _mm512_xor_si512(_mm512_loadu_si512(x + xs + k), xf);
        if (NC > 2) x2 = _mm512_xor_si512(_mm512_loadu_si512(x + 2u * xs + k), xf);
        if (NC > 3) x3 = _mm512_xor_si512(_mm512_loadu_si512(x + 3u * xs + k), xf);
        ACCEL__MAC_ZT(0, ACCEL__MAC_ZT_LD); ACCEL__MAC_ZT(1, ACCEL__MAC_ZT_LD);
        ACCEL__MAC_ZT(2, ACCEL__MAC_ZT_LD); ACCEL__MAC_ZT(3, ACCEL__MAC_ZT_LD);
    }
    if (k < n) { /* masked tail: input lanes past the end are 0, so their products are 0 */
        __mmask64 m = accel__mac_z_mask(n - k);
        x0 = _mm512_maskz_mov_epi8(m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + k), xf));
        if (NC > 1) x1 = _mm512_maskz_mov_epi8(m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + xs + k), xf));
        if (NC > 2) x2 = _mm512_maskz_mov_epi8(m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + 2u * xs + k), xf));
        if (NC > 3) x3 = _mm512_maskz_mov_epi8(m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + 3u * xs + k), xf));
        ACCEL__MAC_ZT(0, ACCEL__MAC_ZT_LDM); ACCEL__MAC_ZT(1, ACCEL__MAC_ZT_LDM);
        ACCEL__MAC_ZT(2, ACCEL__MAC_ZT_LDM); ACCEL__MAC_ZT(3, ACCEL__MAC_ZT_LDM);
    }
    d[0] = accel__mac_z_hsum4(a00, a01, a02, a03);
    if (NC > 1) d[1] = accel__mac_z_hsum4(a10, a11, a12, a13);
    if (NC > 2) d[2] = accel__mac_z_hsum4(a20, a21, a22, a23);
    if (NC > 3) d[3] = accel__mac_z_hsum4(a30, a31, a32, a33);
}

/* acc + vpdpbusd(a, b) with b in a register: where one loaded vector feeds two vpdpbusd, GCC 12
 * would otherwise fold the load into both (two loads of each weight line). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
ACCEL__MAC_AI __m512i accel__mac_z_dpr(__m512i acc, __m512i a, __m512i b)
{
    __asm__("vpdpbusd {%2, %1, %0|%0, %1, %2}" : "+v"(acc) : "v"(a), "v"(b));
    return acc;
}
#else
#define accel__mac_z_dpr(acc, a, b) _mm512_dpbusd_epi32((acc), (a), (b))
#endif

/* *a += x . wv and, when S, *s += na . wv (the two vpdpbusd of one weight vector) */
ACCEL__MAC_AI void accel__mac_z_fc1_dp(__m512i *a, __m512i *s, __m512i xv, __m512i wv, __m512i nav,
                                       const int S)
{
    if (S) {
        *a = accel__mac_z_dpr(*a, xv, wv);
        *s = accel__mac_z_dpr(*s, nav, wv);
    } else {
        *a = accel__mac_z_dp(*a, xv, wv);
    }
}

/* The 64 bytes at p, only the lanes of m (others 0), as signed weights: UNS flips them. */
ACCEL__MAC_AI __m512i accel__mac_z_fc1_w(const int8_t *p, __mmask64 m, __m512i flip, const int UNS)
{
    __m512i v = _mm512_maskz_loadu_epi8(m, p);
    return UNS ? _mm512_maskz_mov_epi8(m, _mm512_xor_si512(v, flip)) : v;
}

/* The same, unmasked (the main loop) */
ACCEL__MAC_AI __m512i accel__mac_z_fc1_wf(const int8_t *p, __m512i flip, const int UNS)
{
    __m512i v = _mm512_loadu_si512(p);
    return UNS ? _mm512_xor_si512(v, flip) : v;
}

/* The 64 input bytes at p, lanes of m, as unsigned: int8 (!UNS) flips them. */
ACCEL__MAC_AI __m512i accel__mac_z_fc1_x(const int8_t *p, __mmask64 m, __m512i flip, const int UNS)
{
    __m512i v = _mm512_maskz_loadu_epi8(m, p);
    return UNS ? v : _mm512_maskz_mov_epi8(m, _mm512_xor_si512(v, flip));
}

/* One input row against 4 weight rows, with the a * (weight sum) term of the offset
 * decomposition taken in the same pass (so the weights are read once: batch 1 is bound by
 * them) as a second vpdpbusd of the weights against the constant byte na = -a (0..255), kept
 * in its own accumulator and subtracted lane-wise before the one horizontal sum (S = 0 when
 * na is 0: the input zero point -128 of most int8 activations needs no weight sums).
 * d[r] = sum (x[k] ^ xm) * (w_r[k] ^ fx) - na * sum (w_r[k] ^ fx), modulo 2^32. UNS: uint8
 * data (fx = -128, xm = 0) rather than int8 (fx = 0, xm = -128): one XOR per load either way.
 * Each weight vector is loaded once into a register (both vpdpbusd read it). A pass takes 128
 * bytes (2 whole cache lines) of each of the 4 rows. On the AMD Zen 5 this was tuned on
 * (bench_mac FC, against XNNPACK in the same run) that beat 8 rows of 4 lines by about 1.15-1.3x
 * on uint8 from 256 to 1024 outputs and matched it on int8; 1, 3 or 8 lines, 2 or 8 rows,
 * rows 4 apart, one row at a time, software prefetch (any distance, L1 or L2 hint) and
 * vpsadbw for the weight sums were all no faster or slower.
 * pk < n, pk < 64: a first masked step over bytes [0, pk) so that the weight loads after it are
 * aligned (the caller picks pk when every row has the same alignment); loads that straddle two
 * cache lines cost about 20% on weights in L1/L2. */
ACCEL__MAC_AI __m128i accel__mac_tile1(const int8_t *x, const int8_t *w, size_t ws, size_t n,
                                       size_t pk, int32_t na, const int UNS, const int S)
{
    /* the 4 rows' accumulators as named variables, not arrays: GCC 12 at -O2 does not unroll
     * the row loop and would keep an array of them in memory */
    __m512i a0, a1, a2, a3, s0, s1, s2, s3, x0, x1, flip = _mm512_set1_epi8((char)0x80);
    __m512i nav = _mm512_set1_epi8((char)(na & 0xFF));
    const int8_t *w0 = w, *w1 = w + ws, *w2 = w + 2u * ws, *w3 = w + 3u * ws;
    size_t k = 0;
    a0 = a1 = a2 = a3 = s0 = s1 = s2 = s3 = _mm512_setzero_si512();
    if (pk > 0) { /* bytes [0, pk): the weight loads after them are 64-byte aligned */
        __mmask64 m = accel__mac_z_mask(pk);
        x0 = accel__mac_z_fc1_x(x, m, flip, UNS);
        accel__mac_z_fc1_dp(&a0, &s0, x0, accel__mac_z_fc1_w(w0, m, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a1, &s1, x0, accel__mac_z_fc1_w(w1, m, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a2, &s2, x0, accel__mac_z_fc1_w(w2, m, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a3, &s3, x0, accel__mac_z_fc1_w(w3, m, flip, UNS), nav, S);
        k = pk;
    }
    for (; k + 128u <= n; k += 128u) { /* 2 lines of each row, one row after the other */
        x0 = _mm512_loadu_si512(x + k);
        x1 = _mm512_loadu_si512(x + k + 64u);
        if (!UNS) {
            x0 = _mm512_xor_si512(x0, flip);
            x1 = _mm512_xor_si512(x1, flip);
        }
        accel__mac_z_fc1_dp(&a0, &s0, x0, accel__mac_z_fc1_wf(w0 + k, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a0, &s0, x1, accel__mac_z_fc1_wf(w0 + k + 64u, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a1, &s1, x0, accel__mac_z_fc1_wf(w1 + k, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a1, &s1, x1, accel__mac_z_fc1_wf(w1 + k + 64u, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a2, &s2, x0, accel__mac_z_fc1_wf(w2 + k, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a2, &s2, x1, accel__mac_z_fc1_wf(w2 + k + 64u, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a3, &s3, x0, accel__mac_z_fc1_wf(w3 + k, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a3, &s3, x1, accel__mac_z_fc1_wf(w3 + k + 64u, flip, UNS), nav, S);
    }
    for (; k < n; k += 64u) { /* the last 1..127 bytes, a line at a time, masked */
        __mmask64 m = n - k >= 64u ? ~(__mmask64)0 : accel__mac_z_mask(n - k);
        x0 = accel__mac_z_fc1_x(x + k, m, flip, UNS);
        accel__mac_z_fc1_dp(&a0, &s0, x0, accel__mac_z_fc1_w(w0 + k, m, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a1, &s1, x0, accel__mac_z_fc1_w(w1 + k, m, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a2, &s2, x0, accel__mac_z_fc1_w(w2 + k, m, flip, UNS), nav, S);
        accel__mac_z_fc1_dp(&a3, &s3, x0, accel__mac_z_fc1_w(w3 + k, m, flip, UNS), nav, S);
    }
    if (S) {
        a0 = _mm512_sub_epi32(a0, s0);
        a1 = _mm512_sub_epi32(a1, s1);
        a2 = _mm512_sub_epi32(a2, s2);
        a3 = _mm512_sub_epi32(a3, s3);
    }
    return accel__mac_z_hsum4(a0, a1, a2, a3);
}

/* Double-rounding requantization of 16 int32 lanes, the same arithmetic as accel__mac_rq1
 * lane by lane: mul/sh the lanes' multipliers and shifts, lo/hi = act_min/act_max minus off
 * (the output offset). Returns the clamped output values as int32 lanes.
 * SaturatingRoundingDoublingHighMul is (x*m + nudge) / 2^31 truncated, nudge = 2^30 for
 * x*m >= 0 and 1 - 2^30 below; both cases equal floor((x*m + 2^30) / 2^31) (for a negative
 * product the truncation adds 2^31 - 1 before the floor), so each 64-bit product needs one add
 * and one shift. m >= 0 is validated, so INT32_MIN * INT32_MIN cannot occur. */
ACCEL__MAC_AI __m512i accel__mac_z_rq(__m512i acc, __m512i mul, __m512i sh, __m512i lo,
                                      __m512i hi, __m512i off)
{
    __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512(), x, rs, h, mask, v, thr;
    __m512i half = _mm512_set1_epi64((long long)1 << 30), pe, po;
    rs = _mm512_max_epi32(_mm512_sub_epi32(zero, sh), zero);
    x = _mm512_sllv_epi32(acc, _mm512_max_epi32(sh, zero));
    /* even lanes: bits 31..62 of the sum land in the low half after >> 31; odd lanes: in the
     * high half after << 1 */
    pe = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, mul), half), 31);
    po = _mm512_slli_epi64(
        _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(mul, 32)),
                         half),
        1);
    h = _mm512_mask_blend_epi32((__mmask16)0xAAAA, pe, po);
    /* RoundingDivideByPOT */
    mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, rs), one);
    thr = _mm512_add_epi32(_mm512_srli_epi32(mask, 1), _mm512_srli_epi32(h, 31));
    v = _mm512_srav_epi32(h, rs);
    v = _mm512_mask_add_epi32(v, _mm512_cmpgt_epi32_mask(_mm512_and_si512(h, mask), thr), v, one);
    /* clamp(v + off) as min/max before the add: no overflow at the extremes */
    return _mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(v, lo), hi), off);
}

/* The multipliers and shifts of the channels ch0.. selected by m (per-tensor: entry 0). */
ACCEL__MAC_AI void accel__mac_z_qload(const accel_mac_quant *q, size_t ch0, __mmask16 m,
                                      __m512i *mul, __m512i *sh)
{
    if (q->count == 1) {
        *mul = _mm512_set1_epi32(q->multiplier[0]);
        *sh = _mm512_set1_epi32(q->shift[0]);
    } else {
        *mul = _mm512_maskz_loadu_epi32(m, q->multiplier + ch0);
        *sh = _mm512_maskz_loadu_epi32(m, q->shift + ch0);
    }
}


/* The lanes of v (row sums of output channels ch0.., cnt <= 16 of them) plus c (the offset
 * terms common to every channel) and the bias, stored as int32 (o32) or requantized (o) from
 * registers: the sums never pass through memory in pieces (a 512-bit load of values just
 * stored 128 bits at a time stalls on store forwarding). */
ACCEL__MAC_AI void accel__mac_z_emit16(__m512i v, size_t cnt, __m512i c, const int32_t *bias,
                                       const accel_mac_quant *q, size_t ch0, uint8_t *o,
                                       int32_t *o32)
{
    __mmask16 m = (__mmask16)((1u << cnt) - 1u);
    __m512i mul, sh;
    v = _mm512_add_epi32(v, c);
    if (bias) v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(m, bias + ch0));
    if (o32) {
        _mm512_mask_storeu_epi32(o32, m, v);
    } else if (q->rounding == ACCEL_MAC_ROUND_DOUBLE) {
        accel__mac_z_qload(q, ch0, m, &mul, &sh);
        v = accel__mac_z_rq(v, mul, sh, _mm512_set1_epi32(q->act_min - q->output_offset),
                            _mm512_set1_epi32(q->act_max - q->output_offset),
                            _mm512_set1_epi32(q->output_offset));
        _mm512_mask_cvtepi32_storeu_epi8(o, m, v);
    } else {
        uint32_t t[16];
        _mm512_storeu_si512(t, v);
        accel__mac_requant_n(t, cnt, q, ch0, o);
    }
}

/* accel__mac_z_emit16 for double rounding, bytes out, no bias (the constants hold it). */
ACCEL__MAC_AI void accel__mac_z_emit16dr(__m512i v, size_t cnt, __m512i c, const int32_t *cst,
                                         const accel_mac_quant *q, size_t ch0, uint8_t *o)
{
    __mmask16 m = (__mmask16)((1u << cnt) - 1u);
    __m512i mul, sh;
    v = _mm512_add_epi32(_mm512_add_epi32(v, c), _mm512_maskz_loadu_epi32(m, cst + ch0));
    accel__mac_z_qload(q, ch0, m, &mul, &sh);
    v = accel__mac_z_rq(v, mul, sh, _mm512_set1_epi32(q->act_min - q->output_offset),
                        _mm512_set1_epi32(q->act_max - q->output_offset),
                        _mm512_set1_epi32(q->output_offset));
    _mm512_mask_cvtepi32_storeu_epi8(o, m, v);
}

/* Batch rows of fewer than 4 (FC batch 1): one input row x against weight rows [0, ns4) (ns4
 * a multiple of 4), 16 rows per block, each requantized from registers. c: the per-call
 * constant terms (wo * sum xu + k * a * wo). */
ACCEL__MAC_AI void accel__mac_z_fc1_t(const int8_t *x, const int8_t *w, size_t ns4, size_t ks,
                                      int32_t na, __m512i c, const int32_t *bias,
                                      const accel_mac_quant *q, uint8_t *o, int32_t *o32,
                                      const int UNS, const int S)
{
    size_t n, nb, pk = 0;
    /* every row has the weights' alignment; from 512 bytes on, one more (masked) line per row
     * costs less than loads that straddle lines */
    if (ks % 64u == 0 && ks >= 512u) pk = (size_t)(0u - (uintptr_t)(const void *)w) & 63u;
    for (n = 0; n < ns4; n += nb) {
        const int8_t *wp = w + n * ks;
        __m128i t[4]; /* the sums of rows n.., 4 at a time (whole 128-bit values) */
        __m512i v;
        size_t j;
        nb = ns4 - n < 16u ? ns4 - n : 16u;
        for (j = 0; j < 4u; j++)
            t[j] = 4u * j < nb ? accel__mac_tile1(x, wp + 4u * j * ks, ks, ks, pk, na, UNS, S)
                               : _mm_setzero_si128();
        v = _mm512_inserti32x4(_mm512_castsi256_si512(_mm256_inserti128_si256(
                                   _mm256_castsi128_si256(t[0]), t[1], 1)),
                               t[2], 2);
        v = _mm512_inserti32x4(v, t[3], 3);
        accel__mac_z_emit16(v, nb, c, bias, q, n, o ? o + n : NULL, o32 ? o32 + n : NULL);
    }
}

/* ---- @mac.fc: prepacked FC (accel_mac_fully_connected_pack, layout 2). The pack holds, per block of
 * up to 64 output channels (V = 1..4 vectors of 16), for each group of 4 input bytes the 4
 * weights of each channel of the block: V * 64 bytes, so one input group, broadcast, meets V
 * whole vectors with no horizontal sums, and the weights are one sequential stream (the
 * hardware prefetcher then needs only the software prefetch below to stay ahead in the L3).
 * Weights are signed (uint8 ones flipped at packing), inputs made unsigned on the fly; the
 * weight sums sit in the pack's constants. */
#ifndef ACCEL__MAC_PF
#define ACCEL__MAC_PF 2048u /* prefetch distance in the stream (bench_mac FC packed, Zen 5: 1-4 KiB alike, 8 KiB slower) */
#endif

/* The 4 input bytes at p as one broadcast int32, unsigned: int8 (!UNS) flips them. */
ACCEL__MAC_AI __m512i accel__mac_z_x4(const int8_t *p, __m512i flip, const int UNS)
{
    __m512i v = _mm512_broadcastd_epi32(_mm_loadu_si32(p));
    return UNS ? v : _mm512_xor_si512(v, flip);
}

/* Where the kernels below requantize to, straight from their registers (an array of the
 * sums would be a kilobyte of stack): the block's first channel n of ns, the rows' terms c[r],
 * the constants, the output rows (stride ns). */
typedef struct {
    size_t n, ns;
    const uint32_t *c;
    const int32_t *cst;
    const accel_mac_quant *q;
    uint8_t *o;
} accel__mac_zfe;
#define ACCEL__MAC_FCP_EMIT(r, j, A)                                                              \
    do {                                                                                          \
        if (R > r && V > j) {                                                                     \
            size_t ch_ = e->n + 16u * (j), cnt_ = e->ns - ch_ < 16u ? e->ns - ch_ : 16u;          \
            if (R == 1)                                                                           \
                accel__mac_z_emit16(A, cnt_, _mm512_set1_epi32((int)e->c[r]), e->cst, e->q, ch_,  \
                                    e->o + (r) * e->ns + ch_, NULL);                              \
            else /* double rounding only (the caller's choice): no call, no spilled registers */  \
                accel__mac_z_emit16dr(A, cnt_, _mm512_set1_epi32((int)e->c[r]), e->cst, e->q,     \
                                      ch_, e->o + (r) * e->ns + ch_);                             \
        }                                                                                         \
    } while (0)

/* accel__mac_z_x4 of the n < 4 bytes at p and zeros (a masked load: no copy, no call, so the
 * accumulators of the callers stay in registers) */
ACCEL__MAC_AI __m512i accel__mac_z_x4n(const int8_t *p, size_t n, __m512i flip, const int UNS)
{
    __m512i v = _mm512_maskz_loadu_epi8((__mmask64)((1u << n) - 1u), p);
    v = _mm512_broadcastd_epi32(_mm512_castsi512_si128(v));
    return UNS ? v : _mm512_xor_si512(v, flip);
}

/* Sums of one input row (ks bytes) against one block of V vectors (p: its ks4 / 4 groups),
 * requantized (vector j: the block's channels 16j..). Two accumulators per vector (even and
 * odd groups) keep 2 * V vpdpbusd chains in flight. */
ACCEL__MAC_AI void accel__mac_z_fcp_block(const int8_t *x, size_t ks, const int8_t *p,
                                          const accel__mac_zfe *e, const int V, const int UNS)
{
    const int R = 1;
    __m512i e0, e1, e2, e3, o0, o1, o2, o3, x0, x1, flip = _mm512_set1_epi8((char)0x80);
    size_t k = 0;
    e0 = e1 = e2 = e3 = o0 = o1 = o2 = o3 = _mm512_setzero_si512();
    for (; k + 8u <= ks; k += 8u, p += 128 * V) {
        x0 = accel__mac_z_x4(x + k, flip, UNS);
        x1 = accel__mac_z_x4(x + k + 4u, flip, UNS);
        _mm_prefetch((const char *)((uintptr_t)p + ACCEL__MAC_PF), _MM_HINT_T0);
        e0 = accel__mac_z_dp(e0, x0, _mm512_loadu_si512(p));
        o0 = accel__mac_z_dp(o0, x1, _mm512_loadu_si512(p + 64 * V));
        if (V > 1) {
            _mm_prefetch((const char *)((uintptr_t)p + ACCEL__MAC_PF + 128u), _MM_HINT_T0);
            e1 = accel__mac_z_dp(e1, x0, _mm512_loadu_si512(p + 64));
            o1 = accel__mac_z_dp(o1, x1, _mm512_loadu_si512(p + 64 * V + 64));
        }
        if (V > 2) {
            _mm_prefetch((const char *)((uintptr_t)p + ACCEL__MAC_PF + 256u), _MM_HINT_T0);
            e2 = accel__mac_z_dp(e2, x0, _mm512_loadu_si512(p + 128));
            o2 = accel__mac_z_dp(o2, x1, _mm512_loadu_si512(p + 64 * V + 128));
        }
        if (V > 3) {
            _mm_prefetch((const char *)((uintptr_t)p + ACCEL__MAC_PF + 384u), _MM_HINT_T0);
            e3 = accel__mac_z_dp(e3, x0, _mm512_loadu_si512(p + 192));
            o3 = accel__mac_z_dp(o3, x1, _mm512_loadu_si512(p + 64 * V + 192));
        }
    }
    if (k < ks) { /* one or two groups left, the last possibly partial (its weights are 0) */
        size_t r = ks - k;
        x0 = accel__mac_z_x4n(x + k, r < 4u ? r : 4u, flip, UNS);
        e0 = accel__mac_z_dp(e0, x0, _mm512_loadu_si512(p));
        if (V > 1) e1 = accel__mac_z_dp(e1, x0, _mm512_loadu_si512(p + 64));
        if (V > 2) e2 = accel__mac_z_dp(e2, x0, _mm512_loadu_si512(p + 128));
        if (V > 3) e3 = accel__mac_z_dp(e3, x0, _mm512_loadu_si512(p + 192));
        if (r > 4u) {
            x1 = accel__mac_z_x4n(x + k + 4u, r - 4u, flip, UNS);
            p += 64 * V;
            o0 = accel__mac_z_dp(o0, x1, _mm512_loadu_si512(p));
            if (V > 1) o1 = accel__mac_z_dp(o1, x1, _mm512_loadu_si512(p + 64));
            if (V > 2) o2 = accel__mac_z_dp(o2, x1, _mm512_loadu_si512(p + 128));
            if (V > 3) o3 = accel__mac_z_dp(o3, x1, _mm512_loadu_si512(p + 192));
        }
    }
    ACCEL__MAC_FCP_EMIT(0, 0, _mm512_add_epi32(e0, o0));
    ACCEL__MAC_FCP_EMIT(0, 1, _mm512_add_epi32(e1, o1));
    ACCEL__MAC_FCP_EMIT(0, 2, _mm512_add_epi32(e2, o2));
    ACCEL__MAC_FCP_EMIT(0, 3, _mm512_add_epi32(e3, o3));
}

/* R = 2 or 4 input rows (stride xs) against one block of V vectors, one group of 4 input bytes
 * at a time: each weight vector, loaded once, meets the R rows' broadcasts (R * V accumulators
 * in named registers; GCC 12 at -O2 keeps arrays of them in memory; the weight vector in a
 * register: GCC 12 would fold its load into every row's vpdpbusd); requantized as above. */
#define ACCEL__MAC_FCP_DP(r, j)                                                                   \
    do {                                                                                          \
        if (R > r && V > j) a##r##j = accel__mac_z_dpr(a##r##j, x##r, w##j);                      \
    } while (0)
#define ACCEL__MAC_FCP_ROW(r)                                                                     \
    do {                                                                                          \
        ACCEL__MAC_FCP_DP(r, 0);                                                                  \
        ACCEL__MAC_FCP_DP(r, 1);                                                                  \
        ACCEL__MAC_FCP_DP(r, 2);                                                                  \
        ACCEL__MAC_FCP_DP(r, 3);                                                                  \
    } while (0)
ACCEL__MAC_AI void accel__mac_z_fcp_rows(const int8_t *x, size_t xs, size_t ks, const int8_t *p,
                                         const accel__mac_zfe *e, const int R, const int V,
                                         const int UNS)
{
    __m512i a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33;
    __m512i x0, x1, x2, x3, w0, w1, w2, w3, z = _mm512_setzero_si512();
    __m512i flip = _mm512_set1_epi8((char)0x80);
    size_t k;
    a00 = a01 = a02 = a03 = a10 = a11 = a12 = a13 = z;
    a20 = a21 = a22 = a23 = a30 = a31 = a32 = a33 = z;
    x2 = x3 = w1 = w2 = w3 = z;
    for (k = 0; k < ks; k += 4u, p += 64 * V) {
        if (k + 4u <= ks) {
            x0 = accel__mac_z_x4(x + k, flip, UNS);
            x1 = accel__mac_z_x4(x + xs + k, flip, UNS);
            if (R > 2) {
                x2 = accel__mac_z_x4(x + 2u * xs + k, flip, UNS);
                x3 = accel__mac_z_x4(x + 3u * xs + k, flip, UNS);
            }
        } else { /* the last, partial group (its weights are 0) */
            size_t n = ks - k;
            x0 = accel__mac_z_x4n(x + k, n, flip, UNS);
            x1 = accel__mac_z_x4n(x + xs + k, n, flip, UNS);
            if (R > 2) {
                x2 = accel__mac_z_x4n(x + 2u * xs + k, n, flip, UNS);
                x3 = accel__mac_z_x4n(x + 3u * xs + k, n, flip, UNS);
            }
        }
        _mm_prefetch((const char *)((uintptr_t)p + ACCEL__MAC_PF), _MM_HINT_T0);
        w0 = _mm512_loadu_si512(p);
        if (V > 1) w1 = _mm512_loadu_si512(p + 64);
        if (V > 2) w2 = _mm512_loadu_si512(p + 128);
        if (V > 3) w3 = _mm512_loadu_si512(p + 192);
        ACCEL__MAC_FCP_ROW(0);
        ACCEL__MAC_FCP_ROW(1);
        ACCEL__MAC_FCP_ROW(2);
        ACCEL__MAC_FCP_ROW(3);
    }
    ACCEL__MAC_FCP_EMIT(0, 0, a00); ACCEL__MAC_FCP_EMIT(0, 1, a01);
    ACCEL__MAC_FCP_EMIT(0, 2, a02); ACCEL__MAC_FCP_EMIT(0, 3, a03);
    ACCEL__MAC_FCP_EMIT(1, 0, a10); ACCEL__MAC_FCP_EMIT(1, 1, a11);
    ACCEL__MAC_FCP_EMIT(1, 2, a12); ACCEL__MAC_FCP_EMIT(1, 3, a13);
    ACCEL__MAC_FCP_EMIT(2, 0, a20); ACCEL__MAC_FCP_EMIT(2, 1, a21);
    ACCEL__MAC_FCP_EMIT(2, 2, a22); ACCEL__MAC_FCP_EMIT(2, 3, a23);
    ACCEL__MAC_FCP_EMIT(3, 0, a30); ACCEL__MAC_FCP_EMIT(3, 1, a31);
    ACCEL__MAC_FCP_EMIT(3, 2, a32); ACCEL__MAC_FCP_EMIT(3, 3, a33);
}
#undef ACCEL__MAC_FCP_ROW
#undef ACCEL__MAC_FCP_DP

/* R = 1, 2 or 4 input rows (stride ks, output stride ns) through the whole pack (ns channels,
 * constants cst, weights p), requantized 16 channels at a time; c[r]: row r's term
 * wo * sum (x + 128). */
ACCEL__MAC_AI void accel__mac_z_fcp_run(const int8_t *x, size_t ks, size_t ns, const int8_t *p,
                                        const int32_t *cst, const uint32_t *c,
                                        const accel_mac_quant *q, uint8_t *o, const int R,
                                        const int UNS)
{
    size_t n, v, ks4 = (ks + 3u) & ~(size_t)3;
    accel__mac_zfe ev, *e = &ev;
    ev.ns = ns;
    ev.c = c;
    ev.cst = cst;
    ev.q = q;
    ev.o = o;
    for (n = 0; n < ns; n += 64u) {
        v = (ns - n + 15u) / 16u;
        if (v > 4u) v = 4u;
        ev.n = n;
        switch (v) { /* each its own register-blocked copy */
        case 1: if (R == 1) accel__mac_z_fcp_block(x, ks, p, e, 1, UNS); else accel__mac_z_fcp_rows(x, ks, ks, p, e, R, 1, UNS); break;
        case 2: if (R == 1) accel__mac_z_fcp_block(x, ks, p, e, 2, UNS); else accel__mac_z_fcp_rows(x, ks, ks, p, e, R, 2, UNS); break;
        case 3: if (R == 1) accel__mac_z_fcp_block(x, ks, p, e, 3, UNS); else accel__mac_z_fcp_rows(x, ks, ks, p, e, R, 3, UNS); break;
        default: if (R == 1) accel__mac_z_fcp_block(x, ks, p, e, 4, UNS); else accel__mac_z_fcp_rows(x, ks, ks, p, e, R, 4, UNS); break;
        }
        p += 16u * v * ks4;
    }
}
#else
/* AVX2: bytes widened to int16 and multiplied with vpmaddwd, whose pair sums (at most
 * 2*255*128) are exact; vpmaddubsw is not used because it saturates. 2 input rows x 4 weight
 * rows: 8 accumulators fit the 16 ymm registers. */
#define ACCEL__MAC_TILE_NC 2u
/* accel__mac_z_rq on 8 lanes: double-rounding requantization, the same floor form of
 * SaturatingRoundingDoublingHighMul (multiplier >= 0). */
ACCEL__MAC_AI __m256i accel__mac_y_rq(__m256i acc, __m256i mul, __m256i sh, __m256i lo,
                                      __m256i hi, __m256i off)
{
    __m256i one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256(), x, rs, h, mask, v, thr;
    __m256i half = _mm256_set1_epi64x((long long)1 << 30), pe, po;
    rs = _mm256_max_epi32(_mm256_sub_epi32(zero, sh), zero);
    x = _mm256_sllv_epi32(acc, _mm256_max_epi32(sh, zero));
    pe = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(x, mul), half), 31);
    po = _mm256_slli_epi64(
        _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), _mm256_srli_epi64(mul, 32)),
                         half),
        1);
    h = _mm256_blend_epi32(pe, po, 0xAA);
    mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, rs), one);
    thr = _mm256_add_epi32(_mm256_srli_epi32(mask, 1), _mm256_srli_epi32(h, 31));
    v = _mm256_srav_epi32(h, rs);
    v = _mm256_add_epi32(v, _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_and_si256(h, mask), thr), one));
    return _mm256_add_epi32(_mm256_min_epi32(_mm256_max_epi32(v, lo), hi), off);
}

/* accel__mac_requant_n: 8 channels at a time when double rounding, the rest portable. */
static void accel__mac_y_requant_n(const uint32_t *acc, size_t n, const accel_mac_quant *q,
                                   size_t ch0, uint8_t *out)
{
    __m256i mul = _mm256_set1_epi32(q->multiplier[0]), sh = _mm256_set1_epi32(q->shift[0]), v;
    __m256i lo = _mm256_set1_epi32(q->act_min - q->output_offset);
    __m256i hi = _mm256_set1_epi32(q->act_max - q->output_offset);
    __m256i off = _mm256_set1_epi32(q->output_offset);
    /* the low byte of each lane to bytes 0..3 of each 128-bit half, then halves together */
    __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                    0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    size_t j = 0;
    if (q->rounding == ACCEL_MAC_ROUND_DOUBLE)
        for (; j + 8u <= n; j += 8u) {
            if (q->count != 1) {
                mul = _mm256_loadu_si256((const __m256i *)(const void *)(q->multiplier + ch0 + j));
                sh = _mm256_loadu_si256((const __m256i *)(const void *)(q->shift + ch0 + j));
            }
            v = accel__mac_y_rq(_mm256_loadu_si256((const __m256i *)(const void *)(acc + j)), mul,
                                sh, lo, hi, off);
            v = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick),
                                            _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));
            _mm_storel_epi64((__m128i *)(void *)(out + j), _mm256_castsi256_si128(v));
        }
    if (j < n) accel__mac_requant_n(acc + j, n - j, q, ch0 + j, out + j);
}

ACCEL__MAC_AI __m128i accel__mac_y_hsum4(__m256i a, __m256i b, __m256i c, __m256i d)
{
    __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
    return _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
}

static uint32_t accel__mac_usum(const int8_t *p, size_t n, int32_t flip)
{
    __m256i f = _mm256_set1_epi8((char)(flip & 0xFF)), z = _mm256_setzero_si256(), s = z;
    __m128i h;
    uint32_t t;
    size_t k = 0;
    for (; k + 32u <= n; k += 32u)
        s = _mm256_add_epi64(
            s, _mm256_sad_epu8(
                   _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(p + k)), f),
                   z));
    h = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    t = (uint32_t)_mm_cvtsi128_si32(_mm_add_epi64(h, _mm_unpackhi_epi64(h, h)));
    for (; k < n; k++) t += (uint8_t)(p[k] ^ flip);
    return t;
}

/* (named accumulators, not an array: GCC keeps an array of vectors in memory at -O2) */
#define ACCEL__MAC_YT(R)                                                                         \
    do {                                                                                         \
        wv = _mm256_cvtepi8_epi16(                                                               \
            _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + (R) * ws + k)), wf)); \
        a0##R = _mm256_add_epi32(a0##R, _mm256_madd_epi16(x0, wv));                              \
        if (NC > 1) a1##R = _mm256_add_epi32(a1##R, _mm256_madd_epi16(x1, wv));                  \
    } while (0)
ACCEL__MAC_AI void accel__mac_tile(const int8_t *x, size_t xs, const int8_t *w, size_t ws,
                                   size_t n, int32_t xm, int32_t fx, uint32_t *d, const size_t NC)
{
    __m256i a00, a01, a02, a03, a10, a11, a12, a13, x0, x1, wv;
    __m128i xf = _mm_set1_epi8((char)(xm & 0xFF)), wf = _mm_set1_epi8((char)(fx & 0xFF));
    size_t k = 0, c, r;
    a00 = a01 = a02 = a03 = a10 = a11 = a12 = a13 = x1 = _mm256_setzero_si256();
    for (; k + 16u <= n; k += 16u) {
        x0 = _mm256_cvtepu8_epi16(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(x + k)), xf));
        if (NC > 1)
            x1 = _mm256_cvtepu8_epi16(
                _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(x + xs + k)), xf));
        ACCEL__MAC_YT(0); ACCEL__MAC_YT(1); ACCEL__MAC_YT(2); ACCEL__MAC_YT(3);
    }
    _mm_storeu_si128((__m128i *)(void *)d, accel__mac_y_hsum4(a00, a01, a02, a03));
    if (NC > 1) _mm_storeu_si128((__m128i *)(void *)(d + 4), accel__mac_y_hsum4(a10, a11, a12, a13));
    for (; k < n; k++) /* tail, in the same modulo-2^32 arithmetic */
        for (c = 0; c < NC; c++)
            for (r = 0; r < 4; r++)
                d[4u * c + r] += (uint32_t)((int32_t)(uint8_t)(x[c * xs + k] ^ xm) *
                                            (int32_t)(int8_t)(w[r * ws + k] ^ fx));
}
#endif

#if ACCEL_MAC_SIMD == 1
/* Store (o32) or requantize (o) cnt <= 16 accumulators of output channels ch0.. (AVX2; the
 * AVX-512 path requantizes from registers, accel__mac_z_emit16) */
static void accel__mac_simd_emit(const uint32_t *acc, size_t cnt, const accel_mac_quant *q,
                                 size_t ch0, uint8_t *o, int32_t *o32)
{
    size_t r;
    if (o32) {
        for (r = 0; r < cnt; r++) o32[r] = accel__mac_u2s(acc[r]);
        return;
    }
    accel__mac_y_requant_n(acc, cnt, q, ch0, o);
}
#endif

/* Weight rows [0, ns4) (ns4 a multiple of 4) against every input row: out[b*ns + n] gets
 * sum (x + xo')(w + wo') (+ bias), requantized into o, or stored as int32 into o32. Blocks of
 * 16 weight rows, so that requantization runs 16 channels at a time, against chunks of
 * ACCEL__MAC_XB input rows (their byte sums on the stack: kept small). */
#define ACCEL__MAC_XB 32u
static void accel__mac_simd_gemm(const int8_t *x, size_t bs, const int8_t *w, size_t ns4,
                                 size_t ns, size_t ks, int32_t fx, int32_t xo, int32_t wo,
                                 const int32_t *bias, const accel_mac_quant *q, uint8_t *o,
                                 int32_t *o32)
{
    uint32_t xsum[ACCEL__MAC_XB], wsum[16], d[4 * ACCEL__MAC_TILE_NC], acc[ACCEL__MAC_TILE_NC][16];
    uint32_t nk = (uint32_t)ks, cst;
    int32_t xm = fx ^ -128, a = xo - 128;
    size_t b0, bc, n, nb, i, j, c, r, nc, row;
    cst = nk * (uint32_t)a * (uint32_t)wo;
#if ACCEL_MAC_SIMD == 2
    if (bs < 4u) { /* too few rows to amortize a separate weight-sum pass */
        for (b0 = 0; b0 < bs; b0++) {
            const int8_t *xp = x + b0 * ks;
            uint32_t xs = wo != 0 ? accel__mac_usum(xp, ks, xm) : 0u;
            __m512i cv = _mm512_set1_epi32((int)((uint32_t)wo * xs + cst));
            uint8_t *ob = o ? o + b0 * ns : NULL;
            int32_t *ob32 = o32 ? o32 + b0 * ns : NULL;
            /* specialized copies: uint8/int8, weight sums or none */
            switch ((fx ? 2 : 0) + (a != 0)) {
            case 0: accel__mac_z_fc1_t(xp, w, ns4, ks, -a, cv, bias, q, ob, ob32, 0, 0); break;
            case 1: accel__mac_z_fc1_t(xp, w, ns4, ks, -a, cv, bias, q, ob, ob32, 0, 1); break;
            case 2: accel__mac_z_fc1_t(xp, w, ns4, ks, -a, cv, bias, q, ob, ob32, 1, 0); break;
            default: accel__mac_z_fc1_t(xp, w, ns4, ks, -a, cv, bias, q, ob, ob32, 1, 1); break;
            }
        }
        return;
    }
#endif
#if ACCEL_MAC_SIMD == 2
    /* the 4-row sums of each tile go into 16-lane vectors (lanes 4 apart) and are requantized
     * from registers, as in accel__mac_z_fc1_t */
    for (b0 = 0; b0 < bs; b0 += ACCEL__MAC_XB) {
        bc = bs - b0 < ACCEL__MAC_XB ? bs - b0 : ACCEL__MAC_XB;
        for (i = 0; i < bc; i++) xsum[i] = wo != 0 ? accel__mac_usum(x + (b0 + i) * ks, ks, xm) : 0u;
        for (n = 0; n < ns4; n += nb) {
            __m512i cw;
            nb = ns4 - n < 16u ? ns4 - n : 16u;
            for (r = 0; r < nb; r++) /* sum ws = sum (ws + 128) - 128 k */
                wsum[r] = a != 0 ? accel__mac_usum(w + (n + r) * ks, ks, fx ^ -128) - 128u * nk : 0u;
            cw = _mm512_add_epi32(
                _mm512_mullo_epi32(_mm512_maskz_loadu_epi32((__mmask16)((1u << nb) - 1u), wsum),
                                   _mm512_set1_epi32(a)),
                _mm512_set1_epi32((int)cst));
            for (i = 0; i < bc; i += nc) {
                const int8_t *xp = x + (b0 + i) * ks;
                __m512i av0, av1, av2, av3; /* (named: an array would stay in memory) */
                __m128i dv[4];
                nc = bc - i < 4u ? bc - i : 4u;
                av0 = av1 = av2 = av3 = _mm512_setzero_si512();
                dv[0] = dv[1] = dv[2] = dv[3] = _mm_setzero_si128(); /* (lanes nc.. unused) */
                for (j = 0; j < nb; j += 4u) {
                    const int8_t *wp = w + (n + j) * ks;
                    __mmask16 lm = (__mmask16)(0xFu << j);
                    switch (nc) { /* each case is its own register-blocked copy */
                    case 1: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, dv, 1); break;
                    case 2: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, dv, 2); break;
                    case 3: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, dv, 3); break;
                    default: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, dv, 4); break;
                    }
                    av0 = _mm512_mask_broadcast_i32x4(av0, lm, dv[0]);
                    if (nc > 1) av1 = _mm512_mask_broadcast_i32x4(av1, lm, dv[1]);
                    if (nc > 2) av2 = _mm512_mask_broadcast_i32x4(av2, lm, dv[2]);
                    if (nc > 3) av3 = _mm512_mask_broadcast_i32x4(av3, lm, dv[3]);
                }
                for (c = 0; c < nc; c++) {
                    row = (b0 + i + c) * ns + n;
                    accel__mac_z_emit16(
                        c == 0 ? av0 : c == 1 ? av1 : c == 2 ? av2 : av3, nb,
                        _mm512_add_epi32(cw, _mm512_set1_epi32((int)((uint32_t)wo * xsum[i + c]))),
                        bias, q, n, o ? o + row : NULL, o32 ? o32 + row : NULL);
                }
            }
        }
    }
    (void)d;
    (void)acc;
#else
    for (b0 = 0; b0 < bs; b0 += ACCEL__MAC_XB) {
        bc = bs - b0 < ACCEL__MAC_XB ? bs - b0 : ACCEL__MAC_XB;
        for (i = 0; i < bc; i++) xsum[i] = wo != 0 ? accel__mac_usum(x + (b0 + i) * ks, ks, xm) : 0u;
        for (n = 0; n < ns4; n += nb) {
            nb = ns4 - n < 16u ? ns4 - n : 16u;
            for (r = 0; r < nb; r++) /* sum ws = sum (ws + 128) - 128 k */
                wsum[r] = a != 0 ? accel__mac_usum(w + (n + r) * ks, ks, fx ^ -128) - 128u * nk : 0u;
            for (i = 0; i < bc; i += nc) {
                const int8_t *xp = x + (b0 + i) * ks;
                nc = bc - i < ACCEL__MAC_TILE_NC ? bc - i : ACCEL__MAC_TILE_NC;
                for (j = 0; j < nb; j += 4u) {
                    const int8_t *wp = w + (n + j) * ks;
                    switch (nc) { /* each case is its own register-blocked copy */
                    case 1: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, d, 1); break;
#if ACCEL__MAC_TILE_NC > 2
                    case 2: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, d, 2); break;
                    case 3: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, d, 3); break;
                    default: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, d, 4); break;
#else
                    default: accel__mac_tile(xp, ks, wp, ks, ks, xm, fx, d, 2); break;
#endif
                    }
                    for (c = 0; c < nc; c++)
                        for (r = 0; r < 4; r++) acc[c][j + r] = d[4u * c + r];
                }
                for (c = 0; c < nc; c++) {
                    for (r = 0; r < nb; r++)
                        acc[c][r] += (uint32_t)wo * xsum[i + c] + (uint32_t)a * wsum[r] + cst +
                                     (bias ? (uint32_t)bias[n + r] : 0u);
                    row = (b0 + i + c) * ns + n;
                    accel__mac_simd_emit(acc[c], nb, q, n, o ? o + row : NULL,
                                         o32 ? o32 + row : NULL);
                }
            }
        }
    }
#endif
}
#endif /* ACCEL_MAC_SIMD x86 */

#if ACCEL_MAC_SIMD == 3
/* ---- @mac.fc: AArch64: one input row against 4 weight rows, the data in the int8 domain of
 * accel__mac_dot ((x ^ fx) + xo); every sum wraps modulo 2^32 like the portable path's.
 * Executed under QEMU by tests/mac_arm.sh against a plain loop and the portable path. */
/* NEON sdot (s8 x s8, groups of 4 into int32 lanes); the offset terms come from sums taken as
 * dot products with ones: sum (xv+xo)(wv+wo) = sum xv*wv + wo*sum xv + xo*sum wv + n*xo*wo. */
static void accel__mac_arm_dot4(const int8_t *x, const int8_t *w, size_t ws, size_t n, int32_t fx,
                                int32_t xo, int32_t wo, uint32_t *d)
{
    int8x16_t f = vdupq_n_s8((int8_t)fx), ones = vdupq_n_s8(1), xv, wv;
    int32x4_t acc[4], sum[4], xs = vdupq_n_s32(0);
    uint32_t dot[4], wsum[4], xsum;
    size_t k = 0, r;
    for (r = 0; r < 4; r++) acc[r] = sum[r] = vdupq_n_s32(0);
    for (; k + 16u <= n; k += 16u) {
        xv = veorq_s8(vld1q_s8(x + k), f);
        xs = vdotq_s32(xs, ones, xv);
        for (r = 0; r < 4; r++) {
            wv = veorq_s8(vld1q_s8(w + r * ws + k), f);
            acc[r] = vdotq_s32(acc[r], xv, wv);
            sum[r] = vdotq_s32(sum[r], ones, wv);
        }
    }
    xsum = (uint32_t)vaddvq_s32(xs);
    for (r = 0; r < 4; r++) {
        dot[r] = (uint32_t)vaddvq_s32(acc[r]);
        wsum[r] = (uint32_t)vaddvq_s32(sum[r]);
    }
    for (; k < n; k++) { /* tail */
        int32_t xk = (int8_t)(x[k] ^ fx);
        xsum += (uint32_t)xk;
        for (r = 0; r < 4; r++) {
            int32_t wk = (int8_t)(w[r * ws + k] ^ fx);
            dot[r] += (uint32_t)(xk * wk);
            wsum[r] += (uint32_t)wk;
        }
    }
    for (r = 0; r < 4; r++)
        d[r] += dot[r] + (uint32_t)wo * xsum + (uint32_t)xo * wsum[r] +
                (uint32_t)n * (uint32_t)xo * (uint32_t)wo;
}
/* Weight rows [0, ns4) against every input row, 4 at a time; as the x86 accel__mac_simd_gemm. */
static void accel__mac_simd_gemm(const int8_t *x, size_t bs, const int8_t *w, size_t ns4,
                                 size_t ns, size_t ks, int32_t fx, int32_t xo, int32_t wo,
                                 const int32_t *bias, const accel_mac_quant *q, uint8_t *o,
                                 int32_t *o32)
{
    uint32_t acc[4];
    size_t n, b, r;
    for (n = 0; n < ns4; n += 4u)
        for (b = 0; b < bs; b++) { /* the 4 weight rows stay in cache across the batch */
            for (r = 0; r < 4; r++) acc[r] = bias ? (uint32_t)bias[n + r] : 0u;
            accel__mac_arm_dot4(x + b * ks, w + n * ks, ks, ks, fx, xo, wo, acc);
            if (o32)
                for (r = 0; r < 4; r++) o32[b * ns + n + r] = accel__mac_u2s(acc[r]);
            else
                accel__mac_requant_n(acc, 4, q, n, o + b * ns + n);
        }
}
#endif /* ACCEL_MAC_SIMD == 3 */

#if ACCEL__MAC_BLK
/* ---- @mac.fc: microcontroller kernels (ACCEL_MAC_MCU): register-blocked loops for in-order 32-bit
 * cores, written so that GCC and Clang at -O2 (no vectorizer needed) keep every accumulator,
 * pointer and offset in a register. Portable C (Cortex-M0+/M3, any 32-bit target; on hosts
 * without explicit SIMD, conv2d and FC/GEMM of few rows) and, with ACCEL_MAC_SIMD 4 on ARMv6
 * SIMD32 (Cortex-M4/M7/M33), SXTB16/SXTAB16 to unpack two bytes at once and SMLAD for two
 * products per instruction. Every sum is the one of the reference loops modulo 2^32: products
 * of values within -255..255, pairs within 2 * 255 * 255. Measured with make bench-mcu, tuned
 * on the instruction streams GCC 12 -O2 makes of them (kernels and requantization kept in
 * their own functions, accumulators int32 where GCC would reassociate unsigned sums). ---- */
#ifndef ACCEL__MAC_AI
#if defined(__GNUC__) || defined(__clang__)
#define ACCEL__MAC_AI static __inline__ __attribute__((always_inline))
#else
#define ACCEL__MAC_AI static
#endif
#endif
/* kernels kept out of their callers, so that each gets the registers to itself */
#if defined(__GNUC__) || defined(__clang__)
#define ACCEL__MAC_NOINLINE __attribute__((noinline))
#else
#define ACCEL__MAC_NOINLINE
#endif
#if ACCEL_MAC_SIMD == 4 && defined(__ARM_FEATURE_SIMD32) && !defined(__ARMEB__)
#define ACCEL__MAC_DSP 1 /* the byte lanes below are little-endian memory order */
#else
#define ACCEL__MAC_DSP 0 /* ARMv5TE has __ARM_FEATURE_DSP but not these instructions */
#endif
/* The portable kernels' inner loops go 8 elements a turn, 1 when the build optimizes for
 * size (-Os: the unrolled copies would double their code). */
#ifdef __OPTIMIZE_SIZE__
#define ACCEL__MAC_UNROLL 1u
#else
#define ACCEL__MAC_UNROLL 8u
#endif
/* output pixels per pass of the conv2d kernel */
#if ACCEL__MAC_DSP
#define ACCEL__MAC_PIX 4u
#else
#define ACCEL__MAC_PIX 3u
#endif

/* MultiplyByQuantizedMultiplier (double rounding) for m >= 0, the value of accel_mac_multiply_by_quantized_multiplier in
 * fewer steps. SaturatingRoundingDoublingHighMul is floor((x*m + 2^30) / 2^31) for either
 * sign of x*m (gemmlowp's nudge-and-truncate), never saturating as m < 2^31, and lies within
 * [1 - 2^31, 2^31 - 2]. RoundingDivideByPOT(h, e), e >= 1, is floor((h - [h < 0] + 2^(e-1)) /
 * 2^e) = floor((floor((h - [h < 0]) / 2^(e-1)) + 1) / 2), which no int32 step overflows. */
static int32_t accel__mac_mq(uint32_t acc, int32_t m, int32_t sh)
{
    int64_t p = (int64_t)accel__mac_u2s(acc << (sh > 0 ? sh : 0)) * m + ((int64_t)1 << 30);
    int32_t h = accel__mac_u2s((uint32_t)((uint64_t)p >> 31));
    if (sh >= 0) return h;
    return accel__mac_asr(accel__mac_asr(h - (h < 0 ? 1 : 0), -sh - 1) + 1, 1);
}

/* The requantization of a layer: multipliers and shifts (step 0: per tensor), the clamp bounds
 * minus the output offset (so that the clamp cannot overflow), the offset, the rounding. */
typedef struct accel__mac_rqc {
    const int32_t *m, *sh;
    size_t step;
    int32_t lo, hi, off, single, fast, i8;
} accel__mac_rqc;

/* fast: double rounding and a right shift on each of the channels, so that the loops of
 * accel__mac_rq_acc and accel__mac_rq_ch have no case to tell apart. */
static void accel__mac_rq_init(accel__mac_rqc *r, const accel_mac_quant *q, size_t channels)
{
    size_t i, n = q->count == 1 ? 1u : channels;
    r->m = q->multiplier;
    r->sh = q->shift;
    r->step = q->count == 1 ? 0u : 1u;
    r->off = q->output_offset;
    r->lo = q->act_min - r->off;
    r->hi = q->act_max - r->off;
    r->single = q->rounding != ACCEL_MAC_ROUND_DOUBLE;
    r->fast = !r->single;
    for (i = 0; i < n; i++)
        if (q->shift[i] >= 0) r->fast = 0;
    r->i8 = q->act_min == -128 && q->act_max == 127; /* no activation: the clamp is SSAT */
}

/* v clamped to lo..hi, or (I8) to -128..127: one SSAT where the target has it (ARMv6, ARMv7-M;
 * GCC does not find it once the output offset is folded into the comparisons). Elsewhere
 * there is no I8 case (ACCEL__MAC_SSAT 0): it would only add code. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__ARM_FEATURE_SAT)
#define ACCEL__MAC_SSAT 1
#else
#define ACCEL__MAC_SSAT 0
#endif
ACCEL__MAC_AI int32_t accel__mac_clamp(int32_t v, int32_t lo, int32_t hi, const int I8)
{
#if ACCEL__MAC_SSAT
    if (I8) {
        __asm__("ssat %0, #8, %1" : "=r"(v) : "r"(v));
        return v;
    }
#else
    (void)I8;
#endif
    return v < lo ? lo : v > hi ? hi : v;
}

/* The double-rounding requantization of the fast case (shift sh < 0) plus the output offset
 * (to be clamped to act_min..act_max); no int32 step overflows (|result| <= 2^30 + 255).
 * floor((x*m + 2^30) / 2^31) is floor(x*m / 2^31) plus bit 30 of x*m: no constants to add. */
ACCEL__MAC_AI int32_t accel__mac_rqf(uint32_t acc, int32_t m, int32_t sh, int32_t off)
{
    uint64_t p = (uint64_t)((int64_t)accel__mac_u2s(acc) * m);
    int32_t h = accel__mac_u2s((uint32_t)(p >> 31) + (((uint32_t)p >> 30) & 1u));
    return accel__mac_asr(accel__mac_asr(h - (h < 0 ? 1 : 0), -sh - 1) + 1, 1) + off;
}

ACCEL__MAC_AI uint8_t accel__mac_rqone(uint32_t acc, int32_t m, int32_t sh, const accel__mac_rqc *r)
{
    int32_t v = r->single ? accel_mac_multiply_by_quantized_multiplier_single(accel__mac_u2s(acc), m, sh)
                          : accel__mac_mq(acc, m, sh);
    v = v > r->hi ? r->hi : v < r->lo ? r->lo : v;
    return (uint8_t)((v + r->off) & 0xFF);
}

/* Accumulators acc[c * ACCEL__MAC_PIX + p] of nc channels ch.. x np pixels requantized into
 * o[p * os + c]. A pixel a turn, its channels in the inner loop; in the fast case that loop
 * is the arithmetic alone (per channel: PC 1, per tensor: PC 0). */
ACCEL__MAC_AI void accel__mac_rq_run(const uint32_t *acc, size_t nc, size_t np,
                                     const accel__mac_rqc *r, size_t ch, uint8_t *o, size_t os,
                                     const int PC, const int I8)
{
    const int32_t *m0 = r->m + (PC ? ch : 0), *s0 = r->sh + (PC ? ch : 0), *mp, *sp;
    int32_t lo = r->lo + r->off, hi = r->hi + r->off, off = r->off, v, m = *m0, sh = *s0;
    const uint32_t *ap;
    uint8_t *op, *oe;
    for (; np > 0; np--, acc++, o += os)
        for (ap = acc, op = o, oe = o + nc, mp = m0, sp = s0; op != oe; ap += ACCEL__MAC_PIX) {
            if (PC) m = *mp++, sh = *sp++;
            v = accel__mac_clamp(accel__mac_rqf(*ap, m, sh, off), lo, hi, I8);
            *op++ = (uint8_t)(v & 0xFF);
        }
}

ACCEL__MAC_NOINLINE static void accel__mac_rq_acc(const uint32_t *acc, size_t nc, size_t np,
                                                  const accel__mac_rqc *r, size_t ch, uint8_t *o,
                                                  size_t os)
{
    size_t c, p;
    if (ACCEL__MAC_SSAT && r->fast && r->step && r->i8) {
        accel__mac_rq_run(acc, nc, np, r, ch, o, os, 1, 1);
    } else if (r->fast && r->step) {
        accel__mac_rq_run(acc, nc, np, r, ch, o, os, 1, 0);
    } else if (r->fast) {
        accel__mac_rq_run(acc, nc, np, r, ch, o, os, 0, 0);
    } else {
        for (c = 0; c < nc; c++)
            for (p = 0; p < np; p++)
                o[p * os + c] = accel__mac_rqone(acc[c * ACCEL__MAC_PIX + p],
                                                 r->m[(ch + c) * r->step],
                                                 r->sh[(ch + c) * r->step], r);
    }
}

/* n accumulators of the channels ch, ch + 1, ... into o[0..n). */
ACCEL__MAC_NOINLINE static void accel__mac_rq_ch(const uint32_t *acc, size_t n,
                                                 const accel__mac_rqc *r, size_t ch, uint8_t *o)
{
    size_t step = r->step; /* locals: the byte stores may alias *r */
    const int32_t *mp = r->m + ch * step, *sp = r->sh + ch * step;
    int32_t off = r->off, lo = r->lo + off, hi = r->hi + off;
    uint8_t *oe = o + n;
    if (!r->fast) {
        for (; o != oe; mp += step, sp += step) *o++ = accel__mac_rqone(*acc++, *mp, *sp, r);
        return;
    }
    if (ACCEL__MAC_SSAT && r->i8)
        for (; o != oe; mp += step, sp += step)
            *o++ = (uint8_t)(accel__mac_clamp(accel__mac_rqf(*acc++, *mp, *sp, off), lo, hi, 1) & 0xFF);
    else
        for (; o != oe; mp += step, sp += step)
            *o++ = (uint8_t)(accel__mac_clamp(accel__mac_rqf(*acc++, *mp, *sp, off), lo, hi, 0) & 0xFF);
}

#if ACCEL_MAC_MCU /* for the depthwise kernel */
/* acc[p * as + c] of nc channels ch.. x np pixels requantized into o[p * os + c], a channel a
 * turn (its multiplier and shift loaded once). */
ACCEL__MAC_NOINLINE static void accel__mac_rq_grid(const uint32_t *acc, size_t as, size_t nc,
                                                   size_t np, const accel__mac_rqc *r,
                                                   size_t ch, uint8_t *o, size_t os)
{
    size_t step = r->step, p;
    int32_t off = r->off, lo = r->lo + off, hi = r->hi + off, m, sh;
    const uint32_t *a;
    uint8_t *op;
    for (; nc > 0; nc--, ch++, acc++, o++) {
        m = r->m[ch * step];
        sh = r->sh[ch * step];
        a = acc;
        op = o;
        if (!r->fast) {
            for (p = np; p > 0; p--, a += as, op += os) *op = accel__mac_rqone(*a, m, sh, r);
            continue;
        }
        if (ACCEL__MAC_SSAT && r->i8)
            for (p = np; p > 0; p--, a += as, op += os)
                *op = (uint8_t)(accel__mac_clamp(accel__mac_rqf(*a, m, sh, off), lo, hi, 1) & 0xFF);
        else
            for (p = np; p > 0; p--, a += as, op += os)
                *op = (uint8_t)(accel__mac_clamp(accel__mac_rqf(*a, m, sh, off), lo, hi, 0) & 0xFF);
    }
}
#endif

/* A byte of int8 (U 0) or uint8 (U 1) data as its value. */
ACCEL__MAC_AI int32_t accel__mac_ld8(const int8_t *p, const int U)
{
    return U ? (int32_t)*(const uint8_t *)(const void *)p : (int32_t)*p;
}

#if ACCEL__MAC_DSP
/* Unaligned 32-bit loads are fine on ARMv7-M/ARMv8-M Mainline (memcpy becomes one LDR). */
ACCEL__MAC_AI uint32_t accel__mac_ld32(const void *p)
{
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}
/* Bytes 0 and 2 of v (R: 1 and 3), sign- (U: zero-) extended into the two 16-bit halves. */
ACCEL__MAC_AI uint32_t accel__mac_xt(uint32_t v, const int U, const int R)
{
    uint32_t r;
    if (U && R) __asm__("uxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    else if (U) __asm__("uxtb16 %0, %1" : "=r"(r) : "r"(v));
    else if (R) __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    else __asm__("sxtb16 %0, %1" : "=r"(r) : "r"(v));
    return r;
}
/* The same added to the two 16-bit halves of a (modulo 2^16 each). */
ACCEL__MAC_AI uint32_t accel__mac_xta(uint32_t a, uint32_t v, const int U, const int R)
{
    uint32_t r;
    if (U && R) __asm__("uxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(v));
    else if (U) __asm__("uxtab16 %0, %1, %2" : "=r"(r) : "r"(a), "r"(v));
    else if (R) __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(v));
    else __asm__("sxtab16 %0, %1, %2" : "=r"(r) : "r"(a), "r"(v));
    return r;
}
/* acc + a.lo * b.lo + a.hi * b.hi (16 x 16 signed products), modulo 2^32 */
ACCEL__MAC_AI uint32_t accel__mac_smlad(uint32_t a, uint32_t b, uint32_t acc)
{
    __asm__("smlad %0, %1, %2, %0" : "+r"(acc) : "r"(a), "r"(b));
    return acc;
}
/* acc + a.lo * b.lo (BB) or acc + a.hi * b.hi (TT), 16 x 16 signed, modulo 2^32 */
ACCEL__MAC_AI uint32_t accel__mac_smlabb(uint32_t a, uint32_t b, uint32_t acc)
{
    __asm__("smlabb %0, %1, %2, %0" : "+r"(acc) : "r"(a), "r"(b));
    return acc;
}
ACCEL__MAC_AI uint32_t accel__mac_smlatt(uint32_t a, uint32_t b, uint32_t acc)
{
    __asm__("smlatt %0, %1, %2, %0" : "+r"(acc) : "r"(a), "r"(b));
    return acc;
}
/* Rows per pass of the FC kernel: 3 rows, the input word and the offset fill 13 registers.
 * R (2 or 3) rows are computed; nr <= R are used. XA/XT are the byte-extend mnemonics
 * (sxtab16/sxtb16 for int8, uxtab16/uxtb16 for uint8); ROW2 is the third row or nothing. */
#define ACCEL__MAC_FR 3u
#define ACCEL__MAC_FC_ROW(A, W, XT)                                                              \
    "ldr %[t], [%[" #W "]], #4\n\t" XT " %[u], %[t]\n\t" XT " %[t], %[t], ror #8\n\t"            \
    "smlad %[" #A "], %[x02], %[u], %[" #A "]\n\t"                                               \
    "smlad %[" #A "], %[x13], %[t], %[" #A "]\n\t"
#define ACCEL__MAC_FC_STEP(XA, XT, ROW2)                                                         \
    "ldr %[t], [%[x]], #4\n\t" XA " %[x02], %[xo2], %[t]\n\t"                                  \
    XA " %[x13], %[xo2], %[t], ror #8\n\t" ACCEL__MAC_FC_ROW(a0, w0, XT)                         \
    ACCEL__MAC_FC_ROW(a1, w1, XT) ROW2
#define ACCEL__MAC_FC_LOOP(XA, XT, ROW2)                                                         \
    "1:\n\t" ACCEL__MAC_FC_STEP(XA, XT, ROW2) ACCEL__MAC_FC_STEP(XA, XT, ROW2)                    \
    "cmp %[x], %[e]\n\t"                                                                         \
    "bne 1b"
#define ACCEL__MAC_FC_OUT                                                                        \
    [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1),      \
        [w2] "+r"(w2), [t] "=&r"(t), [u] "=&r"(u), [x02] "=&r"(x02), [x13] "=&r"(x13)
ACCEL__MAC_AI void accel__mac_fc_rows_t(const int8_t *x, const int8_t *w, size_t ws, size_t nr,
                                        size_t n, int32_t xo, uint32_t *acc, const int U,
                                        const int R)
{
    const int8_t *w0 = w, *w1 = w + (nr > 1 ? ws : 0), *w2 = w + (nr > 2 ? 2 * ws : 0);
    const int8_t *e = x + (n & ~(size_t)7);
    uint32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], xo2 = ((uint32_t)xo & 0xFFFFu) * 0x10001u;
    uint32_t t, u, x02, x13;
    int32_t xk;
    /* 8 bytes a turn: (x + xo) in int16 halves, bytes 0,2 and 1,3 of each word, the weights
     * the same; 13 registers */
    if (x != e) {
        if (U && R > 2)
            __asm__(ACCEL__MAC_FC_LOOP("uxtab16", "uxtb16", ACCEL__MAC_FC_ROW(a2, w2, "uxtb16"))
                    : ACCEL__MAC_FC_OUT : [e] "r"(e), [xo2] "r"(xo2) : "cc", "memory");
        else if (U)
            __asm__(ACCEL__MAC_FC_LOOP("uxtab16", "uxtb16", "")
                    : ACCEL__MAC_FC_OUT : [e] "r"(e), [xo2] "r"(xo2) : "cc", "memory");
        else if (R > 2)
            __asm__(ACCEL__MAC_FC_LOOP("sxtab16", "sxtb16", ACCEL__MAC_FC_ROW(a2, w2, "sxtb16"))
                    : ACCEL__MAC_FC_OUT : [e] "r"(e), [xo2] "r"(xo2) : "cc", "memory");
        else
            __asm__(ACCEL__MAC_FC_LOOP("sxtab16", "sxtb16", "")
                    : ACCEL__MAC_FC_OUT : [e] "r"(e), [xo2] "r"(xo2) : "cc", "memory");
    }
    for (n &= 7u; n > 0; n--) {
        xk = accel__mac_ld8(x++, U) + xo;
        a0 += (uint32_t)(xk * accel__mac_ld8(w0++, U));
        a1 += (uint32_t)(xk * accel__mac_ld8(w1++, U));
        if (R > 2) a2 += (uint32_t)(xk * accel__mac_ld8(w2++, U));
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
}
#else
/* Rows per pass of the FC kernel: 4 accumulators, 5 pointers, the offset and 2 values fit the
 * 13 registers of Thumb-2 (and of the other 32-bit ISAs); Thumb-1 has 8 low registers. */
#if defined(__thumb__) && !defined(__thumb2__)
#define ACCEL__MAC_FR 2u
#else
#define ACCEL__MAC_FR 4u
#endif
ACCEL__MAC_AI void accel__mac_fc_rows_t(const int8_t *x, const int8_t *w, size_t ws, size_t nr,
                                        size_t n, int32_t xo, uint32_t *acc, const int U)
{
    const int8_t *w0 = w, *w1 = w + (nr > 1 ? ws : 0), *e = x + n;
#if ACCEL__MAC_FR == 4
    const int8_t *w2 = w + (nr > 2 ? 2 * ws : 0), *w3 = w + (nr > 3 ? 3 * ws : 0);
    uint32_t a2 = acc[2], a3 = acc[3];
#endif
    uint32_t a0 = acc[0], a1 = acc[1];
    int32_t xk;
    while (x != e) { /* each product is exact in int32, the sums wrap modulo 2^32 */
        xk = accel__mac_ld8(x++, U) + xo;
        a0 += (uint32_t)(xk * accel__mac_ld8(w0++, U));
        a1 += (uint32_t)(xk * accel__mac_ld8(w1++, U));
#if ACCEL__MAC_FR == 4
        a2 += (uint32_t)(xk * accel__mac_ld8(w2++, U));
        a3 += (uint32_t)(xk * accel__mac_ld8(w3++, U));
#endif
    }
    acc[0] = a0;
    acc[1] = a1;
#if ACCEL__MAC_FR == 4
    acc[2] = a2;
    acc[3] = a3;
#endif
}
#endif

/* acc[r] += sum_k (x[k] + xo) * w_r[k] for the rows r < nr <= ACCEL__MAC_FR of w (stride ws;
 * rows past nr repeat row 0 and their sums are not used). */
static void accel__mac_fc_rows(const int8_t *x, const int8_t *w, size_t ws, size_t nr, size_t n,
                               int32_t xo, uint32_t *acc, int u)
{
#if ACCEL__MAC_DSP
    if (u) {
        if (nr > 2) accel__mac_fc_rows_t(x, w, ws, nr, n, xo, acc, 1, 3);
        else accel__mac_fc_rows_t(x, w, ws, nr, n, xo, acc, 1, 2);
    } else {
        if (nr > 2) accel__mac_fc_rows_t(x, w, ws, nr, n, xo, acc, 0, 3);
        else accel__mac_fc_rows_t(x, w, ws, nr, n, xo, acc, 0, 2);
    }
#else
    if (u) accel__mac_fc_rows_t(x, w, ws, nr, n, xo, acc, 1);
    else accel__mac_fc_rows_t(x, w, ws, nr, n, xo, acc, 0);
#endif
}

/* sum_k (x[k] + xo) modulo 2^32: with it, a filter offset leaves the inner loops,
 * sum (x + xo)(w + wo) = sum (x + xo) w + wo * sum (x + xo). */
static uint32_t accel__mac_xsum(const int8_t *x, size_t n, int32_t xo, int u)
{
    uint32_t s = (uint32_t)xo * (uint32_t)n;
    while (n-- > 0) s += (uint32_t)accel__mac_ld8(x++, u);
    return s;
}

/* FC / GEMM: out[b*ns + n] = sum_k (x + xo)(w + wo) (+ bias), requantized into o or stored as
 * int32 into o32. Weight rows ACCEL__MAC_FR at a time against each input row. */
static void accel__mac_mcu_gemm(const int8_t *x, size_t bs, const int8_t *w, size_t ns, size_t ks,
                                int u, int32_t xo, int32_t wo, const int32_t *bias,
                                const accel__mac_rqc *rq, uint8_t *o, int32_t *o32)
{
    uint32_t acc[ACCEL__MAC_FR], s;
    size_t b, n, r, nr;
    for (b = 0; b < bs; b++, x += ks) {
        s = wo != 0 ? (uint32_t)wo * accel__mac_xsum(x, ks, xo, u) : 0u;
        for (n = 0; n < ns; n += nr) {
            nr = ns - n < ACCEL__MAC_FR ? ns - n : ACCEL__MAC_FR;
#if ACCEL__MAC_FR == 3
            if (ns - n == 4) nr = 2; /* 2 + 2 rather than 3 + 1 */
#endif
            for (r = 0; r < ACCEL__MAC_FR; r++) acc[r] = s + (bias && r < nr ? (uint32_t)bias[n + r] : 0u);
            accel__mac_fc_rows(x, w + n * ks, ks, nr, ks, xo, acc, u);
            if (o32)
                for (r = 0; r < nr; r++) o32[b * ns + n + r] = accel__mac_u2s(acc[r]);
            else
                accel__mac_rq_ch(acc, nr, rq, n, o + b * ns + n);
        }
    }
}
#endif /* ACCEL__MAC_BLK */

#define ACCEL__MAC_BLOCK 4u

ACCELDEF accel_status accel_mac_fully_connected(uint32_t batches, uint32_t in_depth,
                                                uint32_t out_depth, const void *input,
                                                size_t input_len, const void *filter,
                                                size_t filter_len, const int32_t *bias,
                                                size_t bias_len, const accel_mac_quant *q,
                                                void *output, size_t output_len)
{
    const int8_t *x = (const int8_t *)input, *w = (const int8_t *)filter;
    uint8_t *o = (uint8_t *)output;
    size_t need, n, b, r, nr, bs, ks, ns;
    int32_t fx;
    uint32_t acc[ACCEL__MAC_BLOCK];
#if ACCEL_MAC_FAST
    uint32_t wsum[4];
#endif
    accel_status st;
    if (!input || !filter || !output) return ACCEL_E_NULL;
    st = accel__mac_check_q(q, out_depth, bias, bias_len);
    if (st != ACCEL_OK) return st;
    if (batches == 0 || in_depth == 0 || out_depth == 0) return ACCEL_E_ZERO_LENGTH;
    need = 1;
    if (!accel__mac_mul(&need, batches) || !accel__mac_mul(&need, in_depth))
        return ACCEL_E_OVERFLOW;
    if (input_len < need) return ACCEL_E_TRUNCATED;
    need = 1;
    if (!accel__mac_mul(&need, out_depth) || !accel__mac_mul(&need, in_depth))
        return ACCEL_E_OVERFLOW;
    if (filter_len < need) return ACCEL_E_TRUNCATED;
    need = 1;
    if (!accel__mac_mul(&need, batches) || !accel__mac_mul(&need, out_depth))
        return ACCEL_E_OVERFLOW;
    if (output_len < need) return ACCEL_E_BUFFER_TOO_SMALL;
    /* every product fits size_t now, so each factor does */
    bs = (size_t)batches;
    ks = (size_t)in_depth;
    ns = (size_t)out_depth;
    fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0;
#if ACCEL__MAC_BLK
    if (ACCEL_MAC_MCU || bs < 4) {
        accel__mac_rqc rq;
        accel__mac_rq_init(&rq, q, ns);
        accel__mac_mcu_gemm(x, bs, w, ns, ks, fx != 0, q->input_offset, q->filter_offset, bias,
                            &rq, o, NULL);
        return ACCEL_OK;
    }
#endif
    n = 0;
#if ACCEL_MAC_SIMD && !ACCEL_MAC_MCU
    n = ns & ~(size_t)3; /* the SIMD path takes whole blocks of 4 filter rows */
    accel__mac_simd_gemm(x, bs, w, n, ns, ks, fx, q->input_offset - fx, q->filter_offset - fx,
                         bias, q, o, NULL);
#endif
    /* a block of filter rows stays in cache while every batch row passes it */
    for (; n < ns; n += nr) {
        nr = ns - n < ACCEL__MAC_BLOCK ? ns - n : ACCEL__MAC_BLOCK;
#if ACCEL_MAC_FAST
        /* whole blocks of 4 rows come here only without SIMD, where fewer than 4 batch rows
         * took the blocked path above */
        ACCEL_ASSERT(nr < 4 || bs >= 4);
        if (nr == 4) accel__mac_wsum4(w + n * ks, ks, ks, fx, wsum);
#endif
        for (b = 0; b < bs; b++) {
            /* cppcheck-suppress knownConditionTrueFalse ; nr = min(ns - n, BLOCK) with n < ns is at least 1 */
            for (r = 0; r < nr; r++) acc[r] = bias ? (uint32_t)bias[n + r] : 0u;
#if ACCEL_MAC_FAST
            if (nr == 4 && b + 1 < bs) { /* two batch rows per pass */
                uint32_t acc1[4];
                for (r = 0; r < 4; r++) acc1[r] = acc[r];
                accel__mac_rows4x2(x + b * ks, ks, w + n * ks, ks, ks, fx, q->input_offset - fx,
                                   q->filter_offset - fx, wsum, acc, acc1);
                accel__mac_requant_n(acc, 4, q, n, o + b * ns + n);
                b++;
                accel__mac_requant_n(acc1, 4, q, n, o + b * ns + n);
                continue;
            }
            if (nr == 4) /* the weight sums pay off over several rows */
                accel__mac_rows4(x + b * ks, w + n * ks, ks, ks, fx, q->input_offset - fx,
                                 q->filter_offset - fx, wsum, acc);
            else
#endif
            accel__mac_dot_rows(x + b * ks, w + n * ks, ks, nr, ks, fx, q->input_offset - fx,
                                q->filter_offset - fx, acc);
#if ACCEL_MAC_FAST
            accel__mac_requant_n(acc, nr, q, n, o + b * ns + n);
#else
            /* cppcheck-suppress knownConditionTrueFalse ; nr = min(ns - n, BLOCK) with n < ns is at least 1 */
            for (r = 0; r < nr; r++) o[b * ns + n + r] = accel__mac_out(acc[r], q, n + r);
#endif
        }
    }
    return ACCEL_OK;
}

/* ---- @mac.fc: prepacked fully connected. Layout 1 (every build): the constants, then the filter as
 * given, run by the ordinary kernels with the input offset folded into the constants. Layout 2
 * (AVX-512 VNNI): the constants, then the blocks of accel__mac_z_fcp_block. Header (64 bytes,
 * little-endian): "acFC", layout, dtype, 2 zero bytes, in_depth, out_depth, input_offset,
 * filter_offset, zeros, and at 60 the CRC-32 of bytes 0..59 (a pack may come from a file: a
 * damaged header is refused; the data cannot be checked without reading it all). ---- */
#define ACCEL__MAC_PACK_HDR 64u
#if ACCEL_MAC_SIMD == 2 && !ACCEL_MAC_MCU
#define ACCEL__MAC_PACK_LAYOUT 2u
#else
#define ACCEL__MAC_PACK_LAYOUT 1u
#endif

/* Bytes of a pack of layout lay; 0 when they do not fit size_t. *ns_c: constants (channels,
 * rounded up to 16 in layout 2), *ks4: input bytes per channel (rounded up to 4 in layout 2). */
static size_t accel__mac_pack_bytes(uint32_t in_depth, uint32_t out_depth, unsigned lay,
                                    size_t *ns_c, size_t *ks4)
{
    uint32_t nc = out_depth, kc = in_depth;
    size_t w = 1, c = 4;
    if (lay == 2u) {
        if (nc > 0xFFFFFFF0u || kc > 0xFFFFFFFCu) return 0;
        nc = (nc + 15u) & ~15u;
        kc = (kc + 3u) & ~3u;
    }
    if (!accel__mac_mul(&w, nc) || !accel__mac_mul(&w, kc) || !accel__mac_mul(&c, nc)) return 0;
    if (w > (size_t)-1 - c || w + c > (size_t)-1 - ACCEL__MAC_PACK_HDR) return 0;
    *ns_c = (size_t)nc;
    *ks4 = (size_t)kc;
    return w + c + ACCEL__MAC_PACK_HDR;
}

ACCELDEF accel_status accel_mac_fully_connected_pack_mem_size(uint32_t in_depth, uint32_t out_depth,
                                                             size_t *size)
{
    size_t nc, kc, b;
    if (!size) return ACCEL_E_NULL;
    if (in_depth == 0 || out_depth == 0) return ACCEL_E_ZERO_LENGTH;
    b = accel__mac_pack_bytes(in_depth, out_depth, ACCEL__MAC_PACK_LAYOUT, &nc, &kc);
    if (b == 0) return ACCEL_E_OVERFLOW;
    *size = b;
    return ACCEL_OK;
}

#if ACCEL__MAC_PACK_LAYOUT == 2
/* The weights of layout 2: blocks of up to 64 channels; per group of 4 inputs, the 4 signed
 * weights (w ^ fx) of each channel of the block; channels and inputs past the filter are 0
 * (nc, kc: ns and ks rounded up to 16 and 4). */
static void accel__mac_pack2(uint8_t *d, const int8_t *w, size_t ns, size_t ks, size_t nc,
                             size_t kc, int32_t fx)
{
    size_t n0, v, g, j, k;
    for (n0 = 0; n0 < nc; n0 += 64u) {
        v = nc - n0 < 64u ? nc - n0 : 64u;
        for (g = 0; g < kc; g += 4u)
            for (j = 0; j < v; j++)
                for (k = g; k < g + 4u; k++)
                    *d++ = (uint8_t)(n0 + j < ns && k < ks ? (uint8_t)(w[(n0 + j) * ks + k] ^ fx) : 0u);
    }
}
#endif

ACCELDEF accel_status accel_mac_fully_connected_pack(uint32_t in_depth, uint32_t out_depth,
                                                     const void *filter, size_t filter_len,
                                                     const int32_t *bias, size_t bias_len,
                                                     const accel_mac_quant *q, void *packed,
                                                     size_t packed_len)
{
    const int8_t *w = (const int8_t *)filter;
    uint8_t *d = (uint8_t *)packed;
    size_t need, size, nc, kc, ks, ns, n, k;
    uint32_t s;
    int32_t fx, xo, wo, c;
    unsigned lay = ACCEL__MAC_PACK_LAYOUT;
    accel_status st;
    if (!filter || !q || !packed) return ACCEL_E_NULL;
    if (((uintptr_t)packed & 3u) != 0) return ACCEL_E_ALIGN;
    st = accel__mac_check_q(q, out_depth, bias, bias_len);
    if (st != ACCEL_OK) return st;
    if (in_depth == 0 || out_depth == 0) return ACCEL_E_ZERO_LENGTH;
    need = 1;
    if (!accel__mac_mul(&need, out_depth) || !accel__mac_mul(&need, in_depth))
        return ACCEL_E_OVERFLOW;
    size = accel__mac_pack_bytes(in_depth, out_depth, lay, &nc, &kc);
    if (size == 0) return ACCEL_E_OVERFLOW;
    if (filter_len < need) return ACCEL_E_TRUNCATED;
    if (packed_len < size) return ACCEL_E_BUFFER_TOO_SMALL;
    ks = (size_t)in_depth;
    ns = (size_t)out_depth;
    fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0;
    xo = q->input_offset - fx; /* offsets of the signed bytes w ^ fx, x ^ fx */
    wo = q->filter_offset - fx;
    ACCEL_MEMSET(d, 0, ACCEL__MAC_PACK_HDR);
    d[0] = 0x61; /* "acFC" */
    d[1] = 0x63;
    d[2] = 0x46;
    d[3] = 0x43;
    d[4] = (uint8_t)lay;
    d[5] = (uint8_t)q->dtype;
    accel_store_u32le(d + 8, in_depth);
    accel_store_u32le(d + 12, out_depth);
    accel_store_u32le(d + 16, (uint32_t)q->input_offset);
    accel_store_u32le(d + 20, (uint32_t)q->filter_offset);
    accel_store_u32le(d + 60, accel_crc32(d, 60));
    /* constant of channel n: bias + (xo - T) * sum (w + wo), modulo 2^32 as the kernels sum;
     * T = 128 where the kernel adds 128 to every input byte (layout 2), 0 in layout 1 */
    for (n = 0; n < nc; n++) {
        c = 0;
        if (n < ns) {
            s = (uint32_t)ks * (uint32_t)wo;
            for (k = 0; k < ks; k++) {
                int32_t wk = (int8_t)(w[n * ks + k] ^ fx);
                s += (uint32_t)wk;
            }
            c = accel__mac_u2s((uint32_t)(xo - (lay == 2u ? 128 : 0)) * s +
                               (bias ? (uint32_t)bias[n] : 0u));
        }
        ACCEL_MEMCPY(d + ACCEL__MAC_PACK_HDR + 4u * n, &c, 4);
    }
    d += ACCEL__MAC_PACK_HDR + 4u * nc;
#if ACCEL__MAC_PACK_LAYOUT == 2
    accel__mac_pack2(d, w, ns, ks, nc, kc, fx);
    (void)need;
#else
    ACCEL_MEMCPY(d, w, need);
    (void)kc;
#endif
    return ACCEL_OK;
}

#if ACCEL__MAC_PACK_LAYOUT == 2
/* Each specialized copy of accel__mac_z_fcp_run in a function of its own (inlined together,
 * their accumulator arrays would share one frame). */
#define ACCEL__MAC_ZFCP_FN(NAME, R, UNS)                                                         \
    static __attribute__((noinline)) void NAME(const int8_t *x, size_t ks, size_t ns,            \
                                               const int8_t *p, const int32_t *cst,              \
                                               const uint32_t *c, const accel_mac_quant *q,      \
                                               uint8_t *o)                                       \
    {                                                                                            \
        accel__mac_z_fcp_run(x, ks, ns, p, cst, c, q, o, R, UNS);                                \
    }
ACCEL__MAC_ZFCP_FN(accel__mac_z_fcp_10, 1, 0)
ACCEL__MAC_ZFCP_FN(accel__mac_z_fcp_20, 2, 0)
ACCEL__MAC_ZFCP_FN(accel__mac_z_fcp_40, 4, 0)
ACCEL__MAC_ZFCP_FN(accel__mac_z_fcp_11, 1, 1)
ACCEL__MAC_ZFCP_FN(accel__mac_z_fcp_21, 2, 1)
ACCEL__MAC_ZFCP_FN(accel__mac_z_fcp_41, 4, 1)

/* Layout 2 (checked by the caller), in a function of its own: its register-blocked copies
 * spill vectors, and that frame is not on the path of layout 1's call. */
static __attribute__((noinline)) void accel__mac_z_fcp(const int8_t *x, uint32_t batches,
                                                       uint32_t in_depth, uint32_t out_depth,
                                                       const uint8_t *p, const int32_t *cst,
                                                       const accel_mac_quant *q, uint8_t *o)
{
    size_t b, ks = (size_t)in_depth, ns = (size_t)out_depth;
    int32_t fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0, wo = q->filter_offset - fx;
    size_t r, nr;
    uint32_t c[4];
    /* 4 rows at a time share each weight load (then 2, then 1) */
    for (b = 0; b < (size_t)batches; b += nr, x += nr * ks, o += nr * ns) {
        nr = (size_t)batches - b >= 4u ? 4u : (size_t)batches - b >= 2u ? 2u : 1u;
        if (q->rounding != ACCEL_MAC_ROUND_DOUBLE) nr = 1; /* see accel__mac_z_emit16dr */
        for (r = 0; r < nr; r++) /* wo * sum (x + 128): the one term that depends on x */
            c[r] = (uint32_t)wo * (wo != 0 ? accel__mac_usum(x + r * ks, ks, fx ^ -128) : 0u);
        switch ((fx ? 3 : 0) + (nr == 4u ? 2 : nr == 2u ? 1 : 0)) { /* specialized copies */
        case 0: accel__mac_z_fcp_10(x, ks, ns, (const int8_t *)p, cst, c, q, o); break;
        case 1: accel__mac_z_fcp_20(x, ks, ns, (const int8_t *)p, cst, c, q, o); break;
        case 2: accel__mac_z_fcp_40(x, ks, ns, (const int8_t *)p, cst, c, q, o); break;
        case 3: accel__mac_z_fcp_11(x, ks, ns, (const int8_t *)p, cst, c, q, o); break;
        case 4: accel__mac_z_fcp_21(x, ks, ns, (const int8_t *)p, cst, c, q, o); break;
        default: accel__mac_z_fcp_41(x, ks, ns, (const int8_t *)p, cst, c, q, o); break;
        }
    }
}
#endif

ACCELDEF accel_status accel_mac_fully_connected_packed(uint32_t batches, const void *input,
                                                       size_t input_len, const void *packed,
                                                       size_t packed_len, const accel_mac_quant *q,
                                                       void *output, size_t output_len)
{
    const uint8_t *p = (const uint8_t *)packed;
    const int32_t *cst;
    uint32_t in_depth, out_depth;
    size_t need, size, nc, kc;
    unsigned lay;
    accel_status st;
    if (!input || !packed || !q || !output) return ACCEL_E_NULL;
    if (((uintptr_t)packed & 3u) != 0) return ACCEL_E_ALIGN;
    if (packed_len < ACCEL__MAC_PACK_HDR) return ACCEL_E_TRUNCATED;
    lay = p[4];
    if (p[0] != 0x61 || p[1] != 0x63 || p[2] != 0x46 || p[3] != 0x43) return ACCEL_E_MALFORMED;
    if (accel_load_u32le(p + 60) != accel_crc32(p, 60)) return ACCEL_E_CRC;
    if ((lay != 1u && lay != 2u) || p[5] > 1u || p[6] != 0 || p[7] != 0) return ACCEL_E_MALFORMED;
    in_depth = accel_load_u32le(p + 8);
    out_depth = accel_load_u32le(p + 12);
    if (in_depth == 0 || out_depth == 0) return ACCEL_E_MALFORMED;
    size = accel__mac_pack_bytes(in_depth, out_depth, lay, &nc, &kc);
    if (size == 0 || packed_len < size) return ACCEL_E_TRUNCATED;
    if (lay != 1u && lay != ACCEL__MAC_PACK_LAYOUT) return ACCEL_E_UNSUPPORTED;
    st = accel__mac_check_q(q, out_depth, NULL, 0);
    if (st != ACCEL_OK) return st;
    if ((unsigned)q->dtype != p[5] || (uint32_t)q->input_offset != accel_load_u32le(p + 16) ||
        (uint32_t)q->filter_offset != accel_load_u32le(p + 20))
        return ACCEL_E_ARG;
    if (batches == 0) return ACCEL_E_ZERO_LENGTH;
    need = 1;
    if (!accel__mac_mul(&need, batches) || !accel__mac_mul(&need, in_depth))
        return ACCEL_E_OVERFLOW;
    if (input_len < need) return ACCEL_E_TRUNCATED;
    need = 1;
    if (!accel__mac_mul(&need, batches) || !accel__mac_mul(&need, out_depth))
        return ACCEL_E_OVERFLOW;
    if (output_len < need) return ACCEL_E_BUFFER_TOO_SMALL;
    cst = (const int32_t *)(const void *)(p + ACCEL__MAC_PACK_HDR);
    p += ACCEL__MAC_PACK_HDR + 4u * nc;
#if ACCEL__MAC_PACK_LAYOUT == 2
    if (lay == 2u) {
        accel__mac_z_fcp((const int8_t *)input, batches, in_depth, out_depth, p, cst, q,
                         (uint8_t *)output);
        return ACCEL_OK;
    }
#endif
    {
        /* layout 1: the ordinary FC with the input offset (in the constants) made 0 */
        accel_mac_quant q0;
        ACCEL_MEMCPY(&q0, q, sizeof q0); /* no struct assignment: a memcpy call when freestanding */
        q0.input_offset = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0;
        return accel_mac_fully_connected(batches, in_depth, out_depth, input, input_len, p,
                                         size - ACCEL__MAC_PACK_HDR - 4u * nc, cst, nc, &q0,
                                         output, output_len);
    }
}

/* -------------------------------------------------------- @mac.gemm: raw int32 GEMM */
ACCELDEF accel_status accel_mac_matmul_s32(accel_mac_dtype dt, uint32_t m_rows, uint32_t n_cols,
                                           uint32_t depth, const void *a, size_t a_len,
                                           int32_t a_offset, const void *b, size_t b_len,
                                           int32_t b_offset, int32_t *out, size_t out_len)
{
    const int8_t *x = (const int8_t *)a, *w = (const int8_t *)b;
    size_t need, n, m, r, nr, ms, ns, ks;
    int32_t fx;
    uint32_t acc[ACCEL__MAC_BLOCK];
#if ACCEL_MAC_FAST
    uint32_t wsum[4];
#endif
    if (!a || !b || !out) return ACCEL_E_NULL;
    if (dt != ACCEL_MAC_INT8 && dt != ACCEL_MAC_UINT8) return ACCEL_E_MAC_DTYPE;
    if (!accel__mac_offset_ok(dt, a_offset) || !accel__mac_offset_ok(dt, b_offset))
        return ACCEL_E_MAC_OFFSET;
    if (m_rows == 0 || n_cols == 0 || depth == 0) return ACCEL_E_ZERO_LENGTH;
    need = 1;
    if (!accel__mac_mul(&need, m_rows) || !accel__mac_mul(&need, depth)) return ACCEL_E_OVERFLOW;
    if (a_len < need) return ACCEL_E_TRUNCATED;
    need = 1;
    if (!accel__mac_mul(&need, n_cols) || !accel__mac_mul(&need, depth)) return ACCEL_E_OVERFLOW;
    if (b_len < need) return ACCEL_E_TRUNCATED;
    need = 1;
    if (!accel__mac_mul(&need, m_rows) || !accel__mac_mul(&need, n_cols)) return ACCEL_E_OVERFLOW;
    if (out_len < need) return ACCEL_E_BUFFER_TOO_SMALL;
    ms = (size_t)m_rows;
    ns = (size_t)n_cols;
    ks = (size_t)depth;
    fx = dt == ACCEL_MAC_UINT8 ? -128 : 0;
#if ACCEL__MAC_BLK
    if (ACCEL_MAC_MCU || ms < 4) {
        accel__mac_mcu_gemm(x, ms, w, ns, ks, fx != 0, a_offset, b_offset, NULL, NULL, NULL, out);
        return ACCEL_OK;
    }
#endif
    n = 0;
#if ACCEL_MAC_SIMD && !ACCEL_MAC_MCU
    n = ns & ~(size_t)3;
    accel__mac_simd_gemm(x, ms, w, n, ns, ks, fx, a_offset - fx, b_offset - fx, NULL, NULL, NULL,
                         out);
#endif
    for (; n < ns; n += nr) {
        nr = ns - n < ACCEL__MAC_BLOCK ? ns - n : ACCEL__MAC_BLOCK;
#if ACCEL_MAC_FAST
        /* as in accel_mac_fully_connected: 4-row blocks only with at least 4 rows */
        ACCEL_ASSERT(nr < 4 || ms >= 4);
        if (nr == 4) accel__mac_wsum4(w + n * ks, ks, ks, fx, wsum);
#endif
        for (m = 0; m < ms; m++) {
            /* cppcheck-suppress knownConditionTrueFalse ; nr = min(ns - n, BLOCK) with n < ns is at least 1 */
            for (r = 0; r < nr; r++) acc[r] = 0;
#if ACCEL_MAC_FAST
            if (nr == 4)
                accel__mac_rows4(x + m * ks, w + n * ks, ks, ks, fx, a_offset - fx, b_offset - fx,
                                 wsum, acc);
            else
#endif
            accel__mac_dot_rows(x + m * ks, w + n * ks, ks, nr, ks, fx, a_offset - fx,
                                b_offset - fx, acc);
            /* cppcheck-suppress knownConditionTrueFalse ; nr = min(ns - n, BLOCK) with n < ns is at least 1 */
            for (r = 0; r < nr; r++) out[m * ns + n + r] = accel__mac_u2s(acc[r]);
        }
    }
    return ACCEL_OK;
}

/* -------------------------------------------------------- @mac.quant: requantize a tensor */
ACCELDEF accel_status accel_mac_requantize(const int32_t *acc, size_t n, size_t channels,
                                           const accel_mac_quant *q, void *out, size_t out_len)
{
    uint8_t *o = (uint8_t *)out;
    size_t i;
    accel_status st;
    if (!acc || !out) return ACCEL_E_NULL;
    if (channels == 0) return ACCEL_E_ZERO_LENGTH;
    if ((size_t)(uint32_t)channels != channels) return ACCEL_E_MAC_SHAPE;
    st = accel__mac_check_q(q, (uint32_t)channels, NULL, 0);
    if (st != ACCEL_OK) return st;
    if (out_len < n) return ACCEL_E_BUFFER_TOO_SMALL;
    for (i = 0; i < n; i++) o[i] = accel__mac_out((uint32_t)acc[i], q, i % channels);
    return ACCEL_OK;
}

/* ---- @mac.conv: conv geometry ---- */
static uint32_t accel__mac_one(uint32_t v) { return v ? v : 1u; }

/* (n-1)*s + (k-1)*d must stay far inside int32 for the index arithmetic. */
static int accel__mac_span_ok(uint32_t n, uint32_t s, uint32_t k, uint32_t d)
{
    uint32_t a = (n - 1u) * s, b = (k - 1u) * d; /* each < 2^32: all inputs <= 65535 */
    return a <= 0x3FFFFFFFUL && b <= 0x3FFFFFFFUL;
}

/* Checks the geometry and returns the element counts of input and output. */
static accel_status accel__mac_check_geom(const accel_mac_conv *g, size_t *in_n, size_t *out_n)
{
    const uint32_t *f;
    size_t i;
    if (!g) return ACCEL_E_NULL;
    f = &g->batches;
    if (g->batches == 0 || g->in_h == 0 || g->in_w == 0 || g->in_c == 0 || g->out_h == 0 ||
        g->out_w == 0 || g->out_c == 0 || g->k_h == 0 || g->k_w == 0)
        return ACCEL_E_ZERO_LENGTH;
    if (g->stride_h == 0 || g->stride_w == 0) return ACCEL_E_MAC_STRIDE;
    for (i = 1; i < sizeof(accel_mac_conv) / sizeof(uint32_t); i++)
        if (f[i] > 0xFFFFUL) return ACCEL_E_MAC_SHAPE; /* batches (f[0]) may be larger */
    if (!accel__mac_span_ok(g->out_h, g->stride_h, g->k_h, accel__mac_one(g->dilation_h)) ||
        !accel__mac_span_ok(g->out_w, g->stride_w, g->k_w, accel__mac_one(g->dilation_w)))
        return ACCEL_E_MAC_SHAPE;
    *in_n = 1;
    *out_n = 1;
    if (!accel__mac_mul(in_n, g->batches) || !accel__mac_mul(out_n, g->batches) ||
        !accel__mac_mul(in_n, g->in_h) || !accel__mac_mul(in_n, g->in_w) ||
        !accel__mac_mul(in_n, g->in_c) || !accel__mac_mul(out_n, g->out_h) ||
        !accel__mac_mul(out_n, g->out_w) || !accel__mac_mul(out_n, g->out_c))
        return ACCEL_E_OVERFLOW;
    return ACCEL_OK;
}

/* Taps k in [*lo, *hi) with 0 <= base + k*d < size. */
static void accel__mac_range(int32_t base, uint32_t d, uint32_t k, uint32_t size, uint32_t *lo,
                             uint32_t *hi)
{
    int32_t end = (int32_t)size - base; /* taps need k*d < end */
    uint32_t l = base < 0 ? ((uint32_t)(-base) + d - 1u) / d : 0u, h;
    h = end <= 0 ? 0u : ((uint32_t)end + d - 1u) / d;
    if (h > k) h = k;
    if (l > h) l = h;
    *lo = l;
    *hi = h;
}

#if ACCEL_MAC_SIMD == 1 || ACCEL_MAC_SIMD == 2
/* accel__mac_range without its divisions when d is 1 (every conv without dilation): the x86
 * kernels call it per output pixel, where two integer divisions cost about as much as the
 * pixel's gather. */
ACCEL__MAC_AI void accel__mac_xrange(int32_t base, uint32_t d, uint32_t k, uint32_t size,
                                     uint32_t *lo, uint32_t *hi)
{
    int32_t end = (int32_t)size - base;
    uint32_t l, h;
    if (d != 1u) {
        accel__mac_range(base, d, k, size, lo, hi);
        return;
    }
    l = base < 0 ? (uint32_t)(-base) : 0u;
    h = end <= 0 ? 0u : (uint32_t)end;
    if (h > k) h = k;
    if (l > h) l = h;
    *lo = l;
    *hi = h;
}
#endif

#if ACCEL_MAC_SIMD == 2
/* ---- @mac.conv: conv2d and depthwise conv2d on AVX-512 VNNI, output channels in the vector lanes.
 * conv2d: per output pixel an im2col patch in the uint8 domain (xu = x ^ xm, taps outside the
 * image = the zero point, which adds exactly 0 after the offset), 16 output channels per
 * register; vpdpbusd takes 4 patch bytes broadcast against 4 packed filter bytes of each
 * channel, so no horizontal sums are needed. The filters are packed, a block of output channels
 * at a time, into the caller's scratch (4 taps x 16 channels per 64 bytes, taps past fs zero;
 * the patches and per-channel constants go there too: no large stack frame); the offsets
 * are the same decomposition as accel__mac_rows4: sum (x+xo')(w+wo') = sum xu*ws + wo*sum xu
 * + a*sum ws + fs*a*wo, modulo 2^32, so results are bit-identical to the portable path. ---- */
#define ACCEL__MAC_ZC_W 16384u /* packed filter bytes per block (at least 16 channels) */
#define ACCEL__MAC_ZC_K 1024u /* largest patch: fs rounded up to a multiple of 4 */
#define ACCEL__MAC_ZC_P 8u    /* output pixels per pass (2 x 8 accumulators) */
#define ACCEL__MAC_ZC_N 256u  /* output channels per packed block at most */

/* Output channels per packed block for patches of fs4 bytes and ocg channels per group: a
 * multiple of 16. The scratch: 63 bytes of alignment, the block (ncap * fs4), the accumulators
 * (2 * ACCEL__MAC_ZC_P vectors), ACCEL__MAC_ZC_P patches (fs4 each), ncap constants, then
 * per patch its row pointer, row step and byte sum. */
static size_t accel__mac_z_ncap(size_t fs4, size_t ocg)
{
    size_t n = (ACCEL__MAC_ZC_W / fs4) & ~(size_t)15;
    if (n < 16u) n = 16u;
    if (n > ACCEL__MAC_ZC_N) n = ACCEL__MAC_ZC_N;
    return n < ocg ? n : (ocg + 15u) & ~(size_t)15;
}
static size_t accel__mac_z_conv_scratch(size_t fs, size_t ocg)
{
    size_t fs4 = (fs + 3u) & ~(size_t)3, n = accel__mac_z_ncap(fs4, ocg);
    return 63u + (n + ACCEL__MAC_ZC_P) * fs4 + 2u * ACCEL__MAC_ZC_P * 64u + 4u * n +
           ACCEL__MAC_ZC_P * (sizeof(void *) + sizeof(size_t) + 4u);
}

/* n bytes from s to d with XOR xm (64 at a time, masked tail). */
static void accel__mac_z_cpx(uint8_t *d, const int8_t *s, size_t n, __m512i xm)
{
    size_t k = 0;
    for (; k + 64u <= n; k += 64u)
        _mm512_storeu_si512(d + k, _mm512_xor_si512(_mm512_loadu_si512(s + k), xm));
    if (k < n) {
        __mmask64 m = accel__mac_z_mask(n - k);
        _mm512_mask_storeu_epi8(d + k, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, s + k), xm));
    }
}

/* The patch of output pixel (b, oy, ox), group gi (channels gi*cg..), into d[0..fs). */
static void accel__mac_z_gather(const accel_mac_conv *g, const int8_t *x, uint32_t b,
                                uint32_t oy, uint32_t ox, size_t gi, size_t cg, int zpu,
                                __m512i xm, uint8_t *d)
{
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w);
    uint32_t ky, kx, ky0, ky1, kx0, kx1;
    size_t rowb = (size_t)g->k_w * cg, ic = (size_t)g->in_c, xi;
    int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
    int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
    accel__mac_xrange(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
    accel__mac_xrange(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
    if (ky0 > 0) ACCEL_MEMSET(d, zpu, (size_t)ky0 * rowb);
    for (ky = ky0; ky < ky1; ky++) {
        uint8_t *r = d + (size_t)ky * rowb;
        xi = ((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) * g->in_w;
        if (kx0 > 0) ACCEL_MEMSET(r, zpu, (size_t)kx0 * cg);
        if (dw == 1 && cg == ic) /* the row's taps are contiguous in the input */
            accel__mac_z_cpx(r + (size_t)kx0 * cg,
                             x + (xi + (size_t)(uint32_t)(ix0 + (int32_t)kx0)) * ic,
                             (size_t)(kx1 - kx0) * cg, xm);
        else
            for (kx = kx0; kx < kx1; kx++)
                accel__mac_z_cpx(r + (size_t)kx * cg,
                                 x + (xi + (size_t)(uint32_t)(ix0 + (int32_t)(kx * dw))) * ic +
                                     gi * cg,
                                 cg, xm);
        if (kx1 < g->k_w) ACCEL_MEMSET(r + (size_t)kx1 * cg, zpu, (size_t)(g->k_w - kx1) * cg);
    }
    if (ky1 < g->k_h) ACCEL_MEMSET(d + (size_t)ky1 * rowb, zpu, (size_t)(g->k_h - ky1) * rowb);
}

/* The 2 x ACCEL__MAC_ZC_P accumulators of the two kernels below as named variables, not an
 * array: GCC keeps an array of vectors in memory at -O2 (a kilobyte of stack per copy); named
 * ones stay in registers (16 of the 32 zmm). ACCEL__MAC_ZCB(P): patch P's 4 bytes (xb, set
 * by X(P)) against both channel blocks. */
#define ACCEL__MAC_ZCB_VARS                                                                      \
    __m512i a00 = _mm512_setzero_si512(), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00, \
            a30 = a00, a31 = a00, a40 = a00, a41 = a00, a50 = a00, a51 = a00, a60 = a00,         \
            a61 = a00, a70 = a00, a71 = a00
#define ACCEL__MAC_ZCB(P, X)                                                                     \
    do {                                                                                         \
        xb = X(P);                                                                               \
        a##P##0 = accel__mac_z_dp(a##P##0, xb, w0);                                              \
        if (NV == 2) a##P##1 = accel__mac_z_dp(a##P##1, xb, w1);                                 \
    } while (0)
#define ACCEL__MAC_ZCB_ALL(X)                                                                    \
    ACCEL__MAC_ZCB(0, X); ACCEL__MAC_ZCB(1, X); ACCEL__MAC_ZCB(2, X); ACCEL__MAC_ZCB(3, X);     \
    ACCEL__MAC_ZCB(4, X); ACCEL__MAC_ZCB(5, X); ACCEL__MAC_ZCB(6, X); ACCEL__MAC_ZCB(7, X)
#define ACCEL__MAC_ZCB_OUT                                                                       \
    acc[0] = a00; acc[1] = a01; acc[2] = a10; acc[3] = a11; acc[4] = a20; acc[5] = a21;          \
    acc[6] = a30; acc[7] = a31; acc[8] = a40; acc[9] = a41; acc[10] = a50; acc[11] = a51;        \
    acc[12] = a60; acc[13] = a61; acc[14] = a70; acc[15] = a71

/* ACCEL__MAC_ZC_P patches (rows of pw uint32) against NV (1 or 2) packed 16-channel blocks
 * (kg 64-byte groups each, the second at wp + kg): acc[p*2 + v]. NV is a constant after
 * inlining. */
#define ACCEL__MAC_ZCB_PATCH(P) _mm512_set1_epi32((int)patch[(size_t)(P) * pw + k])
ACCEL__MAC_AI void accel__mac_z_cblock(const uint32_t *patch, size_t pw, const __m512i *wp,
                                       size_t kg, __m512i *acc, const size_t NV)
{
    __m512i w0, w1 = _mm512_setzero_si512(), xb;
    size_t k;
    ACCEL__MAC_ZCB_VARS;
    for (k = 0; k < kg; k++) {
        w0 = _mm512_load_si512(wp + k);
        if (NV == 2) w1 = _mm512_load_si512(wp + kg + k);
        ACCEL__MAC_ZCB_ALL(ACCEL__MAC_ZCB_PATCH);
    }
    ACCEL__MAC_ZCB_OUT;
}

/* accel__mac_z_cblock with each patch read where it lies, row by row: row ky of patch p is
 * the rb bytes (rb a multiple of 4, so no group of 4 taps spans two rows) at base[p] + ky *
 * step[p]: the input itself for a window inside the image, else its gathered copy. Raw bytes,
 * made unsigned here (FLIP: int8 input, XOR 0x80). Saves the copy of every inner window. */
ACCEL__MAC_AI __m512i accel__mac_z_b4(const uint8_t *p, __m512i xm, const int FLIP)
{
    int32_t v;
    __m512i xb;
    ACCEL_MEMCPY(&v, p, 4);
    xb = _mm512_set1_epi32(v);
    return FLIP ? _mm512_xor_si512(xb, xm) : xb;
}
#define ACCEL__MAC_ZCB_ROW(P) accel__mac_z_b4(base[P] + ky * step[P] + c, xm, FLIP)
ACCEL__MAC_AI void accel__mac_z_cblock_rows(const uint8_t *const *base, const size_t *step,
                                            size_t kh, size_t rb, const __m512i *wp, size_t kg,
                                            __m512i xm, __m512i *acc, const size_t NV,
                                            const int FLIP)
{
    __m512i w0, w1 = _mm512_setzero_si512(), xb;
    const __m512i *wk = wp;
    size_t ky, c;
    ACCEL__MAC_ZCB_VARS;
    for (ky = 0; ky < kh; ky++)
        for (c = 0; c < rb; c += 4u, wk++) {
            w0 = _mm512_load_si512(wk);
            if (NV == 2) w1 = _mm512_load_si512(wk + kg);
            ACCEL__MAC_ZCB_ALL(ACCEL__MAC_ZCB_ROW);
        }
    ACCEL__MAC_ZCB_OUT;
}

/* The kernels above for one pair of channel blocks (v: 4 direct, 2 two blocks, 1 int8 input),
 * in a function of their own: their 16 accumulators and the caller's constants need not share
 * the 32 registers (no spilled vectors, a small stack frame). */
static __attribute__((noinline)) void accel__mac_z_cblocks(const uint32_t *patch, size_t pw,
                                                           const uint8_t *const *rbase,
                                                           const size_t *rstep, size_t kh,
                                                           size_t rowb, const __m512i *wp,
                                                           size_t kg, int32_t xm, __m512i *acc,
                                                           int v)
{
    __m512i xmv = _mm512_set1_epi8((char)(xm & 0xFF));
    switch (v) { /* specialized copies */
    case 4: accel__mac_z_cblock_rows(rbase, rstep, kh, rowb, wp, kg, xmv, acc, 1, 0); break;
    case 5: accel__mac_z_cblock_rows(rbase, rstep, kh, rowb, wp, kg, xmv, acc, 1, 1); break;
    case 6: accel__mac_z_cblock_rows(rbase, rstep, kh, rowb, wp, kg, xmv, acc, 2, 0); break;
    case 7: accel__mac_z_cblock_rows(rbase, rstep, kh, rowb, wp, kg, xmv, acc, 2, 1); break;
    case 2: case 3: accel__mac_z_cblock(patch, pw, wp, kg, acc, 2); break;
    default: accel__mac_z_cblock(patch, pw, wp, kg, acc, 1); break;
    }
}

/* Requantize channels ch.. (cnt <= 16) of np pixels (accumulators acc[2p], constants cst,
 * patch sums xsum) into o (rows of oc_n bytes); a function of its own for the reason above. */
static __attribute__((noinline)) void accel__mac_z_cout(const __m512i *acc, size_t cnt,
                                                        const uint32_t *cst,
                                                        const uint32_t *xsum, uint32_t wo,
                                                        size_t np, const accel_mac_quant *q,
                                                        size_t ch, uint8_t *o, size_t oc_n)
{
    __m512i mul, sh, v, t;
    __m512i lo = _mm512_set1_epi32(q->act_min - q->output_offset);
    __m512i hi = _mm512_set1_epi32(q->act_max - q->output_offset);
    __m512i off = _mm512_set1_epi32(q->output_offset);
    __mmask16 m = (__mmask16)((1u << cnt) - 1u);
    size_t p;
    accel__mac_z_qload(q, ch, m, &mul, &sh);
    t = _mm512_maskz_loadu_epi32(m, cst);
    for (p = 0; p < np; p++) {
        v = _mm512_add_epi32(_mm512_add_epi32(acc[2 * p], t), _mm512_set1_epi32((int)(wo * xsum[p])));
        v = accel__mac_z_rq(v, mul, sh, lo, hi, off);
        _mm512_mask_cvtepi32_storeu_epi8(o + p * oc_n + ch, m, v);
    }
}

/* The byte sum of one patch laid out as for accel__mac_z_cblock_rows, each byte XOR x8. */
static __attribute__((noinline)) uint32_t accel__mac_z_usum_rows(const uint8_t *base, size_t step, size_t kh, size_t rb,
                                       int32_t x8)
{
    __m512i s = _mm512_setzero_si512(), z = _mm512_setzero_si512(), xm = _mm512_set1_epi8((char)(x8 & 0xFF));
    __mmask64 m;
    size_t ky, k;
    for (ky = 0; ky < kh; ky++)
        for (k = 0; k < rb; k += 64u) {
            m = rb - k >= 64u ? ~(__mmask64)0 : accel__mac_z_mask(rb - k);
            s = _mm512_add_epi64(s, _mm512_sad_epu8(_mm512_maskz_mov_epi8(m, _mm512_xor_si512(
                                     _mm512_maskz_loadu_epi8(m, base + ky * step + k), xm)), z));
        }
    return (uint32_t)_mm512_reduce_add_epi64(s);
}

/* s[p] = the byte sum of patch p (rows of rb bytes, a multiple of 4, at most 1024) for the np
 * <= 8 patches at d (one reduction per patch: no array of vectors on the stack). */
static void accel__mac_z_usum8(const uint8_t *d, size_t rb, size_t np, uint32_t *s)
{
    __m512i v, z = _mm512_setzero_si512();
    size_t p, k;
    for (p = 0; p < np; p++) {
        v = z;
        for (k = 0; k + 64u <= rb; k += 64u)
            v = _mm512_add_epi64(v, _mm512_sad_epu8(_mm512_loadu_si512(d + p * rb + k), z));
        if (k < rb)
            v = _mm512_add_epi64(
                v, _mm512_sad_epu8(_mm512_maskz_loadu_epi8(accel__mac_z_mask(rb - k), d + p * rb + k), z));
        s[p] = (uint32_t)_mm512_reduce_add_epi64(v);
    }
}

/* conv2d, every group, fs = k_h*k_w*cg <= ACCEL__MAC_ZC_K; sc: the scratch of
 * accel__mac_z_conv_scratch, 64-byte aligned. */
static __attribute__((noinline)) void accel__mac_z_conv(const accel_mac_conv *g, const accel_mac_quant *q, const int8_t *x,
                              const int8_t *w, const int32_t *bias, uint8_t *o, size_t fs,
                              size_t cg, size_t ocg, uint8_t *sc)
{
    __m512i *wp, *acc, xmv;
    uint32_t *patch, *cst;
    uint32_t *xsum, b = 0, oy = 0, ox = 0, nfs = (uint32_t)fs, ws;
    int32_t fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0, xm = fx ^ -128;
    int32_t a = q->input_offset - fx - 128, wo = q->filter_offset - fx;
    int zpu = (int)(((uint32_t)(-q->input_offset) ^ (uint32_t)xm) & 0xFFu);
    size_t fs4 = (fs + 3u) & ~(size_t)3, kg = fs4 / 4u, pw = kg, ncap, gi, s0, sn, j, k, vi;
    size_t npix = (size_t)g->batches * g->out_h * g->out_w, pix0, np, p, oc_n = g->out_c, ch;
    uint8_t *wb, *pb;
    /* direct: patches read in place (accel__mac_z_cblock_rows) where each row of a window is
     * contiguous in the input (no column dilation, one group) and a whole number of 4-tap
     * groups; windows that reach past the image are gathered, raw, with the zero point */
    size_t rowb = (size_t)g->k_w * cg, kh = g->k_h, *rstep;
    size_t istep = (size_t)accel__mac_one(g->dilation_h) * g->in_w * g->in_c;
    const uint8_t **rbase;
    int direct = accel__mac_one(g->dilation_w) == 1u && cg == (size_t)g->in_c && rowb % 4u == 0;
    ncap = accel__mac_z_ncap(fs4, ocg);
    wp = (__m512i *)(void *)sc;
    wb = sc;
    acc = (__m512i *)(void *)(sc + ncap * fs4); /* (a multiple of 64 bytes) */
    pb = (uint8_t *)(void *)(acc + 2u * ACCEL__MAC_ZC_P);
    patch = (uint32_t *)(void *)pb;
    cst = (uint32_t *)(void *)(pb + ACCEL__MAC_ZC_P * fs4);
    rbase = (const uint8_t **)(void *)(cst + ncap); /* (a multiple of 64 bytes) */
    rstep = (size_t *)(void *)(rbase + ACCEL__MAC_ZC_P);
    xsum = (uint32_t *)(void *)(rstep + ACCEL__MAC_ZC_P);
    xmv = _mm512_set1_epi8((char)(xm & 0xFF));
    for (p = 0; p < ACCEL__MAC_ZC_P; p++) { /* the pixels a last, short pass does not use */
        rbase[p] = pb + p * pw * 4u;
        rstep[p] = rowb;
    }
    /* patch bytes past fs meet zero filter bytes; defined values all the same */
    ACCEL_MEMSET(patch, 0, ACCEL__MAC_ZC_P * fs4);
    for (gi = 0; gi * ocg < oc_n; gi++)
        for (s0 = 0; s0 < ocg; s0 += sn) {
            sn = ocg - s0 < ncap ? ocg - s0 : ncap;
            /* pack: block vi, group k: bytes [j*4 + t] = filter (channel vi*16 + j, tap 4k + t) */
            ACCEL_MEMSET(wb, 0, ((sn + 15u) / 16u) * kg * 64u);
            for (j = 0; j < sn; j++) {
                const int8_t *fr = w + (gi * ocg + s0 + j) * fs;
                uint8_t *dst = wb + (j / 16u) * kg * 64u + (j % 16u) * 4u;
                uint32_t f4 = fx ? 0x80808080u : 0u, v4;
                /* 4 taps at a time (a byte transpose, dwords moved whole); the sum of the
                 * signed weights is the uint8 sum of w ^ fx ^ 0x80 less 128 per tap */
                for (k = 0; k + 4u <= fs; k += 4u) {
                    ACCEL_MEMCPY(&v4, fr + k, 4);
                    v4 ^= f4;
                    ACCEL_MEMCPY(dst + k * 16u, &v4, 4);
                }
                for (; k < fs; k++) dst[(k / 4u) * 64u + (k % 4u)] = (uint8_t)((fr[k] ^ fx) & 0xFF);
                ws = accel__mac_usum(fr, fs, fx ^ -128) - 128u * nfs;
                ch = gi * ocg + s0 + j;
                cst[j] = (uint32_t)a * ws + nfs * (uint32_t)a * (uint32_t)wo +
                         (bias ? (uint32_t)bias[ch] : 0u);
            }
            for (pix0 = 0; pix0 < npix; pix0 += np) {
                np = npix - pix0 < ACCEL__MAC_ZC_P ? npix - pix0 : ACCEL__MAC_ZC_P;
                for (p = 0; p < np; p++) {
                    if (direct) {
                        int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
                        int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                        if (iy0 >= 0 && ix0 >= 0 &&
                            (size_t)(uint32_t)iy0 + (kh - 1u) * accel__mac_one(g->dilation_h) < g->in_h &&
                            (size_t)(uint32_t)ix0 + g->k_w <= g->in_w) {
                            rbase[p] = (const uint8_t *)(const void *)x +
                                       (((size_t)b * g->in_h + (uint32_t)iy0) * g->in_w +
                                        (uint32_t)ix0) * g->in_c;
                            rstep[p] = istep;
                        } else {
                            accel__mac_z_gather(g, x, b, oy, ox, gi, cg,
                                                (int)((uint32_t)(zpu ^ xm) & 0xFFu),
                                                _mm512_setzero_si512(), pb + p * pw * 4u);
                            rbase[p] = pb + p * pw * 4u;
                            rstep[p] = rowb;
                        }
                        if (wo != 0) xsum[p] = accel__mac_z_usum_rows(rbase[p], rstep[p], kh, rowb, xm);
                    } else {
                        accel__mac_z_gather(g, x, b, oy, ox, gi, cg, zpu, xmv, pb + p * pw * 4u);
                    }
                    if (++ox == g->out_w) {
                        ox = 0;
                        if (++oy == g->out_h) { oy = 0; b++; }
                    }
                }
                if (wo != 0 && !direct) accel__mac_z_usum8(pb, pw * 4u, np, xsum);
                for (vi = 0; vi * 16u < sn; vi += 2u) {
                    size_t nv = sn - vi * 16u > 16u ? 2u : 1u, u;
                    accel__mac_z_cblocks(patch, pw, rbase, rstep, kh, rowb, wp + vi * kg, kg, xm,
                                         acc, (direct ? 4 : 0) + (nv == 2u ? 2 : 0) + (xm != 0));
                    for (u = 0; u < nv; u++) {
                        size_t c0 = vi * 16u + u * 16u;
                        accel__mac_z_cout(acc + u, sn - c0 < 16u ? sn - c0 : 16u, cst + c0, xsum,
                                          (uint32_t)wo, np, q, gi * ocg + s0 + c0,
                                          o + pix0 * oc_n, oc_n);
                    }
                }
            }
            b = 0; /* ox and oy have wrapped to 0 already */
        }
}

/* conv2d without caller scratch (AVX-512; no column dilation, one group, k_w*in_c a multiple of
 * 4): nothing packed, nothing gathered into memory. The weights of 16 output channels x 4 taps
 * come from the filter rows by one vpgatherdd per group of taps (shared by the 8 pixels of a
 * pass); each pixel's taps are read where they lie in the input, a window reaching past the
 * image composing its 4-byte groups with the zero point (accel__mac_z_bgrp). The offsets are
 * those of accel__mac_z_conv (constants from vpdpbusd of the weights against bytes of 1), so
 * results are bit-identical; the frame stays small (the accumulators in registers). */
typedef struct {
    const accel_mac_conv *g;
    const int8_t *x;
    const uint8_t *base[ACCEL__MAC_ZC_P]; /* window corner of an inner pixel, else NULL */
    int32_t iy0[ACCEL__MAC_ZC_P], ix0[ACCEL__MAC_ZC_P];
    uint32_t b[ACCEL__MAC_ZC_P], xsum[ACCEL__MAC_ZC_P];
    uint32_t lo[ACCEL__MAC_ZC_P], hi[ACCEL__MAC_ZC_P]; /* a window row's in-image bytes */
    size_t istep, rowb;
    uint32_t zp4;     /* the raw zero-point byte, 4 times */
    uint32_t cst[32]; /* per output channel of the pass: bias + a * sum ws + fs * a * wo */
} accel__mac_zns;

/* The 4 raw bytes at offset c of window row ky of pixel p whose window reaches past the image:
 * each byte from the input or, outside it, the zero point. */
ACCEL__MAC_AI uint32_t accel__mac_z_bgrp(const accel__mac_zns *s, size_t p, size_t ky, size_t c)
{
    const accel_mac_conv *g = s->g;
    size_t C = g->in_c, t, i, lo = s->lo[p], hi = s->hi[p], i0;
    int32_t iy = s->iy0[p] + (int32_t)(ky * accel__mac_one(g->dilation_h));
    uint32_t v = 0;
    if (iy < 0 || iy >= (int32_t)g->in_h || lo >= hi) return s->zp4;
    /* byte i of the window row (lo <= i < hi) is input byte i0 + i (modulo arithmetic: i0 may
     * wrap, i0 + i does not) */
    i0 = (((size_t)s->b[p] * g->in_h + (size_t)iy) * g->in_w) * C +
         ((size_t)(uint32_t)(s->ix0[p] + (int32_t)(lo / C)) * C - lo);
    if (c >= lo && c + 4u <= hi) { /* (the index first: s->x + i0 may point out of range) */
        ACCEL_MEMCPY(&v, s->x + (i0 + c), 4);
        return v;
    }
    for (t = 0; t < 4u; t++) {
        i = c + t;
        v |= (uint32_t)(i >= lo && i < hi ? (uint8_t)s->x[i0 + i] : s->zp4 & 0xFFu) << (8u * t);
    }
    return v;
}

ACCEL__MAC_AI __m512i accel__mac_z_nsx(const accel__mac_zns *s, size_t p, size_t ky, size_t c,
                                       __m512i xm, const int FLIP)
{
    __m512i xb;
    if (s->base[p]) {
        int32_t v;
        ACCEL_MEMCPY(&v, s->base[p] + ky * s->istep + c, 4);
        xb = _mm512_set1_epi32(v);
    } else {
        xb = _mm512_set1_epi32((int)accel__mac_z_bgrp(s, p, ky, c));
    }
    return FLIP ? _mm512_xor_si512(xb, xm) : xb;
}

/* Requantize and store accumulator a<P><V> (pixel P, channel block V: constants cv, mul, sh,
 * mask m); one block after the other, so that fewer vectors are live at once. */
#define ACCEL__MAC_ZNS_EMIT(P, V, m)                                                             \
    do {                                                                                         \
        if ((P) < np)                                                                            \
            _mm512_mask_cvtepi32_storeu_epi8(                                                    \
                o + (pix0 + (P)) * oc_n + n0 + 16u * (V), m,                                     \
                accel__mac_z_rq(_mm512_add_epi32(_mm512_add_epi32(a##P##V, cv),                  \
                                                 _mm512_set1_epi32((int)((uint32_t)wo * s->xsum[P]))), \
                                mul, sh, lo, hi, off));                                          \
    } while (0)

/* Output channels n0.. (NV blocks of 16, cnt of them) of the np pixels from pix0 whose windows
 * s describes. */
#define ACCEL__MAC_ZNS_X(P) accel__mac_z_nsx(s, P, ky, c, xmv, FLIP)
ACCEL__MAC_AI void accel__mac_z_ns_t(const accel__mac_zns *s, const accel_mac_quant *q,
                                     const int8_t *w, size_t fs, size_t n0, size_t cnt,
                                     uint8_t *o, size_t pix0, size_t np, const size_t NV,
                                     const int FLIP)
{
    __m512i cv;
    const accel_mac_conv *g = s->g;
    size_t ky, c, kh = g->k_h, rowb = s->rowb, oc_n = g->out_c;
    int32_t fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0, wo = q->filter_offset - fx;
    __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15),
                                     _mm512_set1_epi32((int)fs));
    __m512i f4 = _mm512_set1_epi32(fx ? (int)0x80808080u : 0), z = _mm512_setzero_si512();
    __m512i xmv = _mm512_set1_epi8((char)0x80), w0, w1 = z, xb, mul, sh;
    __m512i lo, hi, off;
    __mmask16 m0 = (__mmask16)(cnt >= 16u ? 0xFFFFu : (1u << cnt) - 1u);
    __mmask16 m1 = (__mmask16)(cnt >= 32u ? 0xFFFFu : cnt > 16u ? (1u << (cnt - 16u)) - 1u : 0u);
    const int8_t *wb0 = w + n0 * fs, *wb1 = w + (n0 + (NV == 2 ? 16u : 0u)) * fs;
    ACCEL__MAC_ZCB_VARS;
    for (ky = 0; ky < kh; ky++)
        for (c = 0; c < rowb; c += 4u) {
            size_t k = ky * rowb + c;
            w0 = _mm512_xor_si512(accel__mac_z_gather1(m0, idx, (const void *)(wb0 + k)), f4);
            if (NV == 2)
                w1 = _mm512_xor_si512(accel__mac_z_gather1(m1, idx, (const void *)(wb1 + k)), f4);
            ACCEL__MAC_ZCB_ALL(ACCEL__MAC_ZNS_X);
        }
    lo = _mm512_set1_epi32(q->act_min - q->output_offset);
    hi = _mm512_set1_epi32(q->act_max - q->output_offset);
    off = _mm512_set1_epi32(q->output_offset);
    cv = _mm512_loadu_si512(s->cst);
    accel__mac_z_qload(q, n0, m0, &mul, &sh);
    ACCEL__MAC_ZNS_EMIT(0, 0, m0); ACCEL__MAC_ZNS_EMIT(1, 0, m0); ACCEL__MAC_ZNS_EMIT(2, 0, m0);
    ACCEL__MAC_ZNS_EMIT(3, 0, m0); ACCEL__MAC_ZNS_EMIT(4, 0, m0); ACCEL__MAC_ZNS_EMIT(5, 0, m0);
    ACCEL__MAC_ZNS_EMIT(6, 0, m0); ACCEL__MAC_ZNS_EMIT(7, 0, m0);
    if (NV == 2) {
        cv = _mm512_loadu_si512(s->cst + 16);
        accel__mac_z_qload(q, n0 + 16u, m1, &mul, &sh);
        ACCEL__MAC_ZNS_EMIT(0, 1, m1); ACCEL__MAC_ZNS_EMIT(1, 1, m1); ACCEL__MAC_ZNS_EMIT(2, 1, m1);
        ACCEL__MAC_ZNS_EMIT(3, 1, m1); ACCEL__MAC_ZNS_EMIT(4, 1, m1); ACCEL__MAC_ZNS_EMIT(5, 1, m1);
        ACCEL__MAC_ZNS_EMIT(6, 1, m1); ACCEL__MAC_ZNS_EMIT(7, 1, m1);
    }
}
#define ACCEL__MAC_ZNS_FN(NAME, NV, FLIP)                                                        \
    static __attribute__((noinline)) void NAME(const accel__mac_zns *s,                          \
                                               const accel_mac_quant *q, const int8_t *w,        \
                                               size_t fs, size_t n0, size_t cnt, uint8_t *o,     \
                                               size_t pix0, size_t np)                           \
    {                                                                                            \
        accel__mac_z_ns_t(s, q, w, fs, n0, cnt, o, pix0, np, NV, FLIP);                          \
    }
ACCEL__MAC_ZNS_FN(accel__mac_z_ns_10, 1, 0)
ACCEL__MAC_ZNS_FN(accel__mac_z_ns_11, 1, 1)
ACCEL__MAC_ZNS_FN(accel__mac_z_ns_20, 2, 0)
ACCEL__MAC_ZNS_FN(accel__mac_z_ns_21, 2, 1)

/* The constants of 16 output channels n0.. (cnt > 0 of them) into d: bias + a * sum ws +
 * fs * a * wo, the weight sums by vpdpbusd of the gathered weights against bytes of 1. */
static __attribute__((noinline)) void accel__mac_z_ns_const(const int8_t *w, size_t fs,
                                                            size_t n0, size_t cnt,
                                                            const int32_t *bias, int32_t fx,
                                                            int32_t a, int32_t wo, uint32_t *d)
{
    __m512i idx = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                       13, 14, 15),
                                     _mm512_set1_epi32((int)fs));
    __m512i f4 = _mm512_set1_epi32(fx ? (int)0x80808080u : 0), z = _mm512_setzero_si512();
    __m512i ones = _mm512_set1_epi8(1), ws = z;
    __mmask16 m = (__mmask16)(cnt >= 16u ? 0xFFFFu : (1u << cnt) - 1u);
    size_t k;
    for (k = 0; k < fs; k += 4u) /* fs is a multiple of 4 here */
        ws = accel__mac_z_dp(ws, ones, _mm512_xor_si512(
                                            accel__mac_z_gather1(m, idx, (const void *)(w + n0 * fs + k)), f4));
    ws = _mm512_add_epi32(_mm512_mullo_epi32(ws, _mm512_set1_epi32(a)),
                          _mm512_set1_epi32((int)((uint32_t)fs * (uint32_t)a * (uint32_t)wo)));
    _mm512_storeu_si512(d, bias ? _mm512_add_epi32(ws, _mm512_maskz_loadu_epi32(m, bias + n0)) : ws);
}

static __attribute__((noinline)) void accel__mac_z_conv_ns(const accel_mac_conv *g,
                                                           const accel_mac_quant *q,
                                                           const int8_t *x, const int8_t *w,
                                                           const int32_t *bias, uint8_t *o,
                                                           size_t fs)
{
    accel__mac_zns s;
    int32_t fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0, xm = fx ^ -128;
    int32_t a = q->input_offset - fx - 128, wo = q->filter_offset - fx;
    uint32_t zr = (uint32_t)(-q->input_offset) & 0xFFu, zx = (zr ^ (uint32_t)xm) & 0xFFu;
    size_t npix = (size_t)g->batches * g->out_h * g->out_w, pix0, np, p, n0, cnt;
    size_t oc_n = g->out_c, kh = g->k_h, kw = g->k_w, C = g->in_c, ky;
    uint32_t b, oy, ox, dh = accel__mac_one(g->dilation_h);
    s.g = g;
    s.x = x;
    s.rowb = kw * C;
    s.istep = (size_t)dh * g->in_w * C;
    s.zp4 = zr * 0x01010101u;
    for (n0 = 0; n0 < oc_n; n0 += 32u) {
        cnt = oc_n - n0 < 32u ? oc_n - n0 : 32u;
        accel__mac_z_ns_const(w, fs, n0, cnt, bias, fx, a, wo, s.cst);
        if (cnt > 16u) accel__mac_z_ns_const(w, fs, n0 + 16u, cnt - 16u, bias, fx, a, wo, s.cst + 16);
        b = oy = ox = 0;
        for (pix0 = 0; pix0 < npix; pix0 += np) {
            np = npix - pix0 < ACCEL__MAC_ZC_P ? npix - pix0 : ACCEL__MAC_ZC_P;
            for (p = 0; p < ACCEL__MAC_ZC_P; p++) {
                int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
                int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                s.xsum[p] = 0;
                if (p >= np) { /* a short last pass: pixel 0 again, its results not stored */
                    s.base[p] = s.base[0];
                    s.iy0[p] = s.iy0[0];
                    s.ix0[p] = s.ix0[0];
                    s.b[p] = s.b[0];
                    s.lo[p] = s.lo[0];
                    s.hi[p] = s.hi[0];
                    continue;
                }
                s.iy0[p] = iy0;
                s.ix0[p] = ix0;
                s.b[p] = b;
                {
                    uint32_t lx0, lx1;
                    accel__mac_xrange(ix0, 1u, g->k_w, g->in_w, &lx0, &lx1);
                    s.lo[p] = lx0 * (uint32_t)C;
                    s.hi[p] = lx1 * (uint32_t)C;
                }
                if (iy0 >= 0 && ix0 >= 0 && (size_t)(uint32_t)iy0 + (kh - 1u) * dh < g->in_h &&
                    (size_t)(uint32_t)ix0 + kw <= g->in_w) {
                    s.base[p] = (const uint8_t *)(const void *)x +
                                (((size_t)b * g->in_h + (uint32_t)iy0) * g->in_w + (uint32_t)ix0) * C;
                    if (wo != 0)
                        s.xsum[p] = accel__mac_z_usum_rows(s.base[p], s.istep, kh, s.rowb, xm);
                } else {
                    s.base[p] = NULL;
                    if (wo != 0) { /* in-image bytes, XOR xm, plus the zero point's for the rest */
                        uint32_t kx0, kx1, ky0, ky1, t = 0, inb;
                        accel__mac_xrange(ix0, 1u, g->k_w, g->in_w, &kx0, &kx1);
                        accel__mac_xrange(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
                        inb = kx1 > kx0 ? (ky1 - ky0) * (kx1 - kx0) * (uint32_t)C : 0u;
                        for (ky = ky0; ky < ky1 && kx1 > kx0; ky++)
                            t += accel__mac_z_usum_rows(
                                (const uint8_t *)(const void *)x +
                                    (((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) *
                                         g->in_w + (size_t)(uint32_t)(ix0 + (int32_t)kx0)) * C,
                                0, 1, (size_t)(kx1 - kx0) * C, xm);
                        s.xsum[p] = t + ((uint32_t)fs - inb) * zx;
                    }
                }
                if (++ox == g->out_w) {
                    ox = 0;
                    if (++oy == g->out_h) { oy = 0; b++; }
                }
            }
            switch ((cnt > 16u ? 2 : 0) + (xm != 0)) { /* specialized copies */
            case 0: accel__mac_z_ns_10(&s, q, w, fs, n0, cnt, o, pix0, np); break;
            case 1: accel__mac_z_ns_11(&s, q, w, fs, n0, cnt, o, pix0, np); break;
            case 2: accel__mac_z_ns_20(&s, q, w, fs, n0, cnt, o, pix0, np); break;
            default: accel__mac_z_ns_21(&s, q, w, fs, n0, cnt, o, pix0, np); break;
            }
        }
    }
}

/* depthwise conv2d, depth multiplier 1, k_h*k_w <= ACCEL__MAC_ZD_T: 64 channels per pass,
 * 4 taps per vpdpbusd. The taps of a pixel are padded to a multiple of 4; a tap outside the
 * image (or padding) reads the input zero point, whose term (x + xo)(w + wo) is exactly 0 as in
 * the portable path, so every pixel runs the same code. Per term, with xu = x ^ xm (0..255) and
 * ws = w ^ fx (-128..127), (x + xo)(w + wo) = xu*ws + wo'*xu + a*ws + a*wo' (wo' = wo - fx,
 * a = xo - fx - 128; the decomposition of accel__mac_rows4); the last two sum into a per-channel
 * constant with the bias, wo'*xu is a second vpdpbusd against a constant byte. Four tap vectors
 * are interleaved into channel quads by unpacks, which permutes the channels across the four
 * accumulators: accumulator k, lane 4L + j holds channel 16L + 4k + j; constants are packed in
 * that order, and the packs to bytes restore channel order. Sums wrap modulo 2^32 like the
 * portable path. */
#define ACCEL__MAC_ZD_T 64u
ACCEL__MAC_AI __m512i accel__mac_z_ld64(const int8_t *p, __mmask64 m, __m512i xm, const int UNS,
                                        const int FULL)
{
    __m512i v = FULL ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(m, p);
    return UNS ? v : _mm512_xor_si512(v, xm);
}

/* The depthwise kernels below keep their vectors in named variables, not arrays: GCC keeps an
 * array of vectors in memory at -O2, which made frames of several kilobytes. */
/* Four tap vectors of 64 channels -> the 4-byte groups vpdpbusd takes: bytes 4j..4j+3 of a
 * result hold taps 0..3 of one channel (the unpacks work within 128-bit lanes). */
#define ACCEL__MAC_ZQUAD(A, B, C, D)                                                             \
    do {                                                                                         \
        __m512i ab_ = _mm512_unpacklo_epi8(A, B), cd_ = _mm512_unpackhi_epi8(A, B);              \
        __m512i ef_ = _mm512_unpacklo_epi8(C, D), gh_ = _mm512_unpackhi_epi8(C, D);              \
        A = _mm512_unpacklo_epi16(ab_, ef_);                                                     \
        B = _mm512_unpackhi_epi16(ab_, ef_);                                                     \
        C = _mm512_unpacklo_epi16(cd_, gh_);                                                     \
        D = _mm512_unpackhi_epi16(cd_, gh_);                                                     \
    } while (0)
/* The weight of tap i (n taps in all; zero past it and past the channels of m) of channels
 * wc.. as signed bytes (w ^ fx; wf: fx in every byte), read from the filter at each use. */
ACCEL__MAC_AI __m512i accel__mac_z_wtap(const int8_t *wc, size_t C, size_t i, size_t n, __mmask64 m,
                                        __m512i wf)
{
    return i < n ? _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, wc + i * C), wf) : _mm512_setzero_si512();
}
/* Taps i0..i0+3 in the order of ACCEL__MAC_ZQUAD, into W0..W3. */
#define ACCEL__MAC_ZWQ(W0, W1, W2, W3, WC, I0, N)                                                \
    do {                                                                                         \
        W0 = accel__mac_z_wtap(WC, C, (I0), N, m64, wf);                                         \
        W1 = accel__mac_z_wtap(WC, C, (I0) + 1u, N, m64, wf);                                    \
        W2 = accel__mac_z_wtap(WC, C, (I0) + 2u, N, m64, wf);                                    \
        W3 = accel__mac_z_wtap(WC, C, (I0) + 3u, N, m64, wf);                                    \
        ACCEL__MAC_ZQUAD(W0, W1, W2, W3);                                                        \
    } while (0)

/* The per-lane constants of accumulator k of the depthwise kernels (lane 4L + j: channel
 * 16L + 4k + j of c0..c0+nc): the bias (gathered), the multiplier and shift (gathered unless
 * per-tensor); channels past nc 0. */
ACCEL__MAC_AI void accel__mac_z_dwconst(const accel_mac_quant *q, const int32_t *bias, size_t c0,
                                        size_t nc, size_t k, __m512i *bv, __m512i *mul, __m512i *sh)
{
    __m512i ix = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35,
                                                    48, 49, 50, 51),
                                  _mm512_set1_epi32((int)(4u * k)));
    __m512i z = _mm512_setzero_si512();
    __mmask16 mk = _mm512_cmplt_epu32_mask(ix, _mm512_set1_epi32((int)nc));
    *bv = bias ? accel__mac_z_gather4(mk, ix, (const void *)(bias + c0)) : z;
    if (q->count == 1) {
        *mul = _mm512_set1_epi32(q->multiplier[0]);
        *sh = _mm512_set1_epi32(q->shift[0]);
    } else {
        *mul = accel__mac_z_gather4(mk, ix, (const void *)(q->multiplier + c0));
        *sh = accel__mac_z_gather4(mk, ix, (const void *)(q->shift + c0));
    }
}

/* cv = constants (bias) + a * (weight sums S) + nt * a * wo, the weight sums by vpdpbusd of
 * the weights against bytes of 1 (accumulated in S). */
#define ACCEL__MAC_ZCV(CV, S) CV = _mm512_add_epi32(_mm512_add_epi32(CV, _mm512_mullo_epi32(S, av)), ntv)
/* Per-channel multipliers (not PT) wait in qt, an int32 table, the shifts (-31..31) in qs, a
 * byte table, and are read at each use through an empty asm statement: GCC would otherwise
 * hoist what accel__mac_z_rq derives from them out of the pixel loop, 4 accumulators x 4
 * vectors, and spill every other vector (a frame of 2 KiB). */
ACCEL__MAC_AI __m512i accel__mac_z_qtld(const int32_t *p)
{
    __m512i v = _mm512_loadu_si512(p);
    __asm__ __volatile__("" : "+v"(v)); /* volatile: not hoisted out of the loop either */
    return v;
}
ACCEL__MAC_AI __m512i accel__mac_z_qsld(const int8_t *p)
{
    __m512i v = _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
    __asm__ __volatile__("" : "+v"(v)); /* volatile: not hoisted out of the loop either */
    return v;
}
#define ACCEL__MAC_ZRQ(A, K)                                                                     \
    accel__mac_z_rq(A, PT ? mul0 : accel__mac_z_qtld(qt + 16 * (K)),                             \
                    PT ? sh0 : accel__mac_z_qsld(qs + 16 * (K)), lo, hi, off)
#define ACCEL__MAC_ZQT                                                                           \
    do {                                                                                         \
        if (!PT) {                                                                               \
            _mm512_storeu_si512(qt, mul0);                                                       \
            _mm512_storeu_si512(qt + 16, mul1);                                                  \
            _mm512_storeu_si512(qt + 32, mul2);                                                  \
            _mm512_storeu_si512(qt + 48, mul3);                                                  \
            _mm_storeu_si128((__m128i *)(void *)qs, _mm512_cvtepi32_epi8(sh0));                  \
            _mm_storeu_si128((__m128i *)(void *)(qs + 16), _mm512_cvtepi32_epi8(sh1));           \
            _mm_storeu_si128((__m128i *)(void *)(qs + 32), _mm512_cvtepi32_epi8(sh2));           \
            _mm_storeu_si128((__m128i *)(void *)(qs + 48), _mm512_cvtepi32_epi8(sh3));           \
        }                                                                                        \
    } while (0)
/* Pack four requantized accumulators into bytes in channel order and store them at O (the
 * values are in the output type's range, so the saturating packs are exact; per 128-bit lane
 * they put accumulators 0..3, channels 16L + 4k + j, back in channel order). */
#define ACCEL__MAC_ZDWST(R0, R1, R2, R3, O)                                                      \
    do {                                                                                         \
        __m512i ab_ = _mm512_packs_epi32(R0, R1), cd_ = _mm512_packs_epi32(R2, R3);              \
        ab_ = UNS ? _mm512_packus_epi16(ab_, cd_) : _mm512_packs_epi16(ab_, cd_);                \
        if (FULL) _mm512_storeu_si512(O, ab_);                                                   \
        else _mm512_mask_storeu_epi8(O, m64, ab_);                                               \
    } while (0)

/* Channels [c0, c0 + 64) (FULL) or [c0, C) (fewer than 64) of every output pixel. No arrays on
 * the stack: tap pointers are computed as the taps are read, the weights re-read from the
 * filter, the constants built in registers. */
/* The next tap (*ky, *kx; i < nt: a real one) of the window at (iy0, ix0), 64 channels from c0;
 * the zero point outside the image. */
ACCEL__MAC_AI __m512i accel__mac_z_dwx(const accel_mac_conv *g, const int8_t *x, size_t C,
                                       size_t c0, uint32_t b, int32_t iy0, int32_t ix0,
                                       size_t i, size_t nt, size_t *pky, size_t *pkx,
                                       uint32_t ky0, uint32_t ky1, uint32_t kx0, uint32_t kx1,
                                       const int8_t *zp, __mmask64 m64, __m512i xmv,
                                       const int UNS, const int FULL)
{
    size_t ky = *pky, kx = *pkx;
    const int8_t *tp = zp;
    if (i >= nt) return accel__mac_z_ld64(tp, m64, xmv, UNS, FULL);
    if (++*pkx == g->k_w) {
        *pkx = 0;
        ++*pky;
    }
    if (ky >= ky0 && ky < ky1 && kx >= kx0 && kx < kx1)
        tp = x + (((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * accel__mac_one(g->dilation_h)))) *
                      g->in_w + (size_t)(uint32_t)(ix0 + (int32_t)(kx * accel__mac_one(g->dilation_w)))) * C + c0;
    return accel__mac_z_ld64(tp, m64, xmv, UNS, FULL);
}
/* A += x . w and the offset terms wo' . x (wa, wb: wo' split into two signed bytes). */
#define ACCEL__MAC_ZDWK(A, X, W)                                                                 \
    do {                                                                                         \
        A = accel__mac_z_dp(A, X, W);                                                            \
        if (wa != 0) A = accel__mac_z_dp(A, X, wav);                                             \
        if (wb != 0) A = accel__mac_z_dp(A, X, wbv);                                             \
    } while (0)
ACCEL__MAC_AI void accel__mac_z_dw_t(const accel_mac_conv *g, const accel_mac_quant *q,
                                     const int8_t *x, const int8_t *w, const int32_t *bias,
                                     uint8_t *o, size_t c0, const int UNS, const int FULL,
                                     const int PT)
{
    __m512i a0, a1, a2, a3, b0, b1, b2, b3, cv0, cv1, cv2, cv3, mul0, mul1, mul2, mul3;
    __m512i sh0, sh1, sh2, sh3, x0, x1, x2, x3, w0, w1, w2, w3, xmv, wav, wbv, wf, av, ntv;
    int32_t qt[4 * 16];
    int8_t qs[4 * 16];
    __m512i zpb = _mm512_set1_epi8((char)(((uint32_t)(-q->input_offset)) & 0xFFu));
    __m512i ones = _mm512_set1_epi8(1);
    const int8_t *zp = (const int8_t *)(const void *)&zpb, *wc = w + c0;
    size_t C = g->in_c, nc = C - c0 < 64u ? C - c0 : 64u, i, nt = (size_t)g->k_h * g->k_w;
    size_t nt4 = (nt + 3u) & ~(size_t)3, ob, ky, kx, jy, jx;
    __mmask64 m64 = nc == 64u ? ~(__mmask64)0 : (__mmask64)(((uint64_t)1 << nc) - 1u);
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w);
    uint32_t b, oy, ox, ky0, ky1, kx0, kx1, lx0, lx1;
    int32_t fx = UNS ? -128 : 0, xm = fx ^ -128, a = q->input_offset - fx - 128;
    int32_t wo = q->filter_offset - fx, wa = wo > 127 ? 127 : wo, wb = wo - wa;
    __m512i lo = _mm512_set1_epi32(q->act_min - q->output_offset);
    __m512i hi = _mm512_set1_epi32(q->act_max - q->output_offset);
    __m512i off = _mm512_set1_epi32(q->output_offset);
    xmv = _mm512_set1_epi8((char)(xm & 0xFF));
    wav = _mm512_set1_epi8((char)(wa & 0xFF));
    wbv = _mm512_set1_epi8((char)(wb & 0xFF));
    wf = _mm512_set1_epi8((char)(fx & 0xFF));
    av = _mm512_set1_epi32(a);
    ntv = _mm512_set1_epi32((int)((uint32_t)nt4 * (uint32_t)a * (uint32_t)wo));
    accel__mac_z_dwconst(q, bias, c0, nc, 0, &cv0, &mul0, &sh0);
    accel__mac_z_dwconst(q, bias, c0, nc, 1, &cv1, &mul1, &sh1);
    accel__mac_z_dwconst(q, bias, c0, nc, 2, &cv2, &mul2, &sh2);
    accel__mac_z_dwconst(q, bias, c0, nc, 3, &cv3, &mul3, &sh3);
    ACCEL__MAC_ZQT;
    a0 = a1 = a2 = a3 = _mm512_setzero_si512();
    for (i = 0; i < nt4; i += 4u) {
        ACCEL__MAC_ZWQ(w0, w1, w2, w3, wc, i, nt);
        a0 = accel__mac_z_dp(a0, ones, w0);
        a1 = accel__mac_z_dp(a1, ones, w1);
        a2 = accel__mac_z_dp(a2, ones, w2);
        a3 = accel__mac_z_dp(a3, ones, w3);
    }
    ACCEL__MAC_ZCV(cv0, a0); ACCEL__MAC_ZCV(cv1, a1); ACCEL__MAC_ZCV(cv2, a2); ACCEL__MAC_ZCV(cv3, a3);
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_xrange(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox += 2u) { /* two pixels a pass share the weights */
                int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                int32_t jx0 = ix0 + (int32_t)g->stride_w;
                int two = ox + 1u < g->out_w;
                accel__mac_xrange(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
                accel__mac_xrange(jx0, dw, g->k_w, g->in_w, &lx0, &lx1);
                ky = kx = jy = jx = 0;
                a0 = b0 = cv0; a1 = b1 = cv1; a2 = b2 = cv2; a3 = b3 = cv3;
                for (i = 0; i < nt4; i += 4u) { /* taps outside the image read the zero point */
                    ACCEL__MAC_ZWQ(w0, w1, w2, w3, wc, i, nt);
                    x0 = accel__mac_z_dwx(g, x, C, c0, b, iy0, ix0, i, nt, &ky, &kx, ky0, ky1, kx0, kx1, zp, m64, xmv, UNS, FULL);
                    x1 = accel__mac_z_dwx(g, x, C, c0, b, iy0, ix0, i + 1u, nt, &ky, &kx, ky0, ky1, kx0, kx1, zp, m64, xmv, UNS, FULL);
                    x2 = accel__mac_z_dwx(g, x, C, c0, b, iy0, ix0, i + 2u, nt, &ky, &kx, ky0, ky1, kx0, kx1, zp, m64, xmv, UNS, FULL);
                    x3 = accel__mac_z_dwx(g, x, C, c0, b, iy0, ix0, i + 3u, nt, &ky, &kx, ky0, ky1, kx0, kx1, zp, m64, xmv, UNS, FULL);
                    ACCEL__MAC_ZQUAD(x0, x1, x2, x3);
                    ACCEL__MAC_ZDWK(a0, x0, w0); ACCEL__MAC_ZDWK(a1, x1, w1);
                    ACCEL__MAC_ZDWK(a2, x2, w2); ACCEL__MAC_ZDWK(a3, x3, w3);
                    if (two) {
                        x0 = accel__mac_z_dwx(g, x, C, c0, b, iy0, jx0, i, nt, &jy, &jx, ky0, ky1, lx0, lx1, zp, m64, xmv, UNS, FULL);
                        x1 = accel__mac_z_dwx(g, x, C, c0, b, iy0, jx0, i + 1u, nt, &jy, &jx, ky0, ky1, lx0, lx1, zp, m64, xmv, UNS, FULL);
                        x2 = accel__mac_z_dwx(g, x, C, c0, b, iy0, jx0, i + 2u, nt, &jy, &jx, ky0, ky1, lx0, lx1, zp, m64, xmv, UNS, FULL);
                        x3 = accel__mac_z_dwx(g, x, C, c0, b, iy0, jx0, i + 3u, nt, &jy, &jx, ky0, ky1, lx0, lx1, zp, m64, xmv, UNS, FULL);
                        ACCEL__MAC_ZQUAD(x0, x1, x2, x3);
                        ACCEL__MAC_ZDWK(b0, x0, w0); ACCEL__MAC_ZDWK(b1, x1, w1);
                        ACCEL__MAC_ZDWK(b2, x2, w2); ACCEL__MAC_ZDWK(b3, x3, w3);
                    }
                }
                ob = (((size_t)b * g->out_h + oy) * g->out_w + ox) * C + c0;
                ACCEL__MAC_ZDWST(ACCEL__MAC_ZRQ(a0, 0), ACCEL__MAC_ZRQ(a1, 1), ACCEL__MAC_ZRQ(a2, 2),
                                 ACCEL__MAC_ZRQ(a3, 3), o + ob);
                if (two)
                    ACCEL__MAC_ZDWST(ACCEL__MAC_ZRQ(b0, 0), ACCEL__MAC_ZRQ(b1, 1), ACCEL__MAC_ZRQ(b2, 2),
                                     ACCEL__MAC_ZRQ(b3, 3), o + ob + C);
            }
        }
}

/* Depthwise with windows at most 3 taps wide, horizontal stride and dilation 1 (3x3, 3x1, 1x3,
 * 2x2, ...): two horizontally adjacent output pixels per pass share their loads and byte
 * interleaves. Per window row, 4 input columns ix0..ix0+3 are interleaved once into channel
 * quads (as in accel__mac_z_dw_t); the left pixel reads them with the row's taps in bytes 0..2
 * (byte 3 weight 0), the right pixel with the taps in bytes 1..3 (byte 0 weight 0): half the
 * loads and unpacks of one window per pixel. The offset term wo'*xu comes from vpdpbusd against
 * wo' in the used bytes only; the constant term counts k_h*k_w taps; a column or row outside the
 * image reads the input zero point (its term is exactly 0, as in accel__mac_z_dw_t). */
#define ACCEL__MAC_ZD3_H 16u /* k_h at most */
ACCEL__MAC_AI void accel__mac_z_dw3_t(const accel_mac_conv *g, const accel_mac_quant *q,
                                      const int8_t *x, const int8_t *w, const int32_t *bias,
                                      uint8_t *o, size_t c0, const int UNS, const int FULL,
                                      const int PT)
{
    __m512i a0, a1, a2, a3, b0, b1, b2, b3, cv0, cv1, cv2, cv3, mul0, mul1, mul2, mul3;
    __m512i sh0, sh1, sh2, sh3, x0, x1, x2, x3, w0, w1, w2, w3, xmv, wf, av, ntv;
    __m512i woa0, woa1, wob0, wob1;
    int32_t qt[4 * 16];
    int8_t qs[4 * 16];
    __m512i zpb = _mm512_set1_epi8((char)(((uint32_t)(-q->input_offset)) & 0xFFu));
    __m512i ones = _mm512_set1_epi8(1);
    const int8_t *cp0, *cp1, *cp2, *cp3, *zp = (const int8_t *)(const void *)&zpb, *rp, *wc = w + c0, *wr;
    size_t C = g->in_c, nc = C - c0 < 64u ? C - c0 : 64u, kh = g->k_h, kw = g->k_w, ky, t;
    size_t ob, W = g->in_w;
    __mmask64 m64 = nc == 64u ? ~(__mmask64)0 : (__mmask64)(((uint64_t)1 << nc) - 1u);
    uint32_t dh = accel__mac_one(g->dilation_h), b, oy, ox, ky0, ky1, pa = 0, pb = 0, ba = 0, bb = 0;
    int32_t fx = UNS ? -128 : 0, xm = fx ^ -128, a = q->input_offset - fx - 128;
    int32_t wo = q->filter_offset - fx, wa = wo > 127 ? 127 : wo, wb = wo - wa, ix0;
    __m512i lo = _mm512_set1_epi32(q->act_min - q->output_offset);
    __m512i hi = _mm512_set1_epi32(q->act_max - q->output_offset);
    __m512i off = _mm512_set1_epi32(q->output_offset);
    xmv = _mm512_set1_epi8((char)(xm & 0xFF));
    wf = _mm512_set1_epi8((char)(fx & 0xFF));
    av = _mm512_set1_epi32(a);
    ntv = _mm512_set1_epi32((int)((uint32_t)(kh * kw) * (uint32_t)a * (uint32_t)wo));
    /* the weights of row ky (its kw <= 3 taps in the order of ACCEL__MAC_ZQUAD): the left
     * pixel's, taps in bytes 0..2 of each dword (byte 3 zero); the right pixel's one byte up
     * (a dword shift) */
    accel__mac_z_dwconst(q, bias, c0, nc, 0, &cv0, &mul0, &sh0);
    accel__mac_z_dwconst(q, bias, c0, nc, 1, &cv1, &mul1, &sh1);
    accel__mac_z_dwconst(q, bias, c0, nc, 2, &cv2, &mul2, &sh2);
    accel__mac_z_dwconst(q, bias, c0, nc, 3, &cv3, &mul3, &sh3);
    ACCEL__MAC_ZQT;
    a0 = a1 = a2 = a3 = _mm512_setzero_si512();
    for (ky = 0; ky < kh; ky++) {
        wr = wc + ky * kw * C;
        ACCEL__MAC_ZWQ(w0, w1, w2, w3, wr, 0u, kw);
        a0 = accel__mac_z_dp(a0, ones, w0);
        a1 = accel__mac_z_dp(a1, ones, w1);
        a2 = accel__mac_z_dp(a2, ones, w2);
        a3 = accel__mac_z_dp(a3, ones, w3);
    }
    ACCEL__MAC_ZCV(cv0, a0); ACCEL__MAC_ZCV(cv1, a1); ACCEL__MAC_ZCV(cv2, a2); ACCEL__MAC_ZCV(cv3, a3);
    /* wo' (split into wa + wb, each a signed byte) in the bytes each pixel uses */
    for (t = 0; t < 4u; t++) {
        if (t < kw) {
            pa |= (uint32_t)(wa & 0xFF) << (8u * t);
            ba |= (uint32_t)(wb & 0xFF) << (8u * t);
        }
        if (t >= 1u && t <= kw) {
            pb |= (uint32_t)(wa & 0xFF) << (8u * t);
            bb |= (uint32_t)(wb & 0xFF) << (8u * t);
        }
    }
    woa0 = _mm512_set1_epi32((int)pa);
    wob0 = _mm512_set1_epi32((int)pb);
    woa1 = _mm512_set1_epi32((int)ba);
    wob1 = _mm512_set1_epi32((int)bb);
#define ACCEL__MAC_ZD3K(K)                                                                       \
    do {                                                                                         \
        a##K = accel__mac_z_dp(a##K, x##K, w##K);                                                \
        b##K = accel__mac_z_dp(b##K, x##K, _mm512_slli_epi32(w##K, 8));                          \
        if (wa != 0) {                                                                           \
            a##K = accel__mac_z_dp(a##K, x##K, woa0);                                            \
            b##K = accel__mac_z_dp(b##K, x##K, wob0);                                            \
        }                                                                                        \
        if (wb != 0) {                                                                           \
            a##K = accel__mac_z_dp(a##K, x##K, woa1);                                            \
            b##K = accel__mac_z_dp(b##K, x##K, wob1);                                            \
        }                                                                                        \
    } while (0)
#define ACCEL__MAC_ZD3C(T) (rp && ix0 + (T) >= 0 && (uint32_t)(ix0 + (T)) < W ? rp + (size_t)(uint32_t)(ix0 + (T)) * C : zp)
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_xrange(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox += 2u) {
                ix0 = (int32_t)ox - (int32_t)g->pad_left;
                a0 = b0 = cv0; a1 = b1 = cv1; a2 = b2 = cv2; a3 = b3 = cv3;
                for (ky = 0; ky < kh; ky++) {
                    rp = ky >= ky0 && ky < ky1
                             ? x + ((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) * W * C + c0
                             : NULL;
                    cp0 = ACCEL__MAC_ZD3C(0);
                    cp1 = ACCEL__MAC_ZD3C(1);
                    cp2 = ACCEL__MAC_ZD3C(2);
                    cp3 = ACCEL__MAC_ZD3C(3);
                    x0 = accel__mac_z_ld64(cp0, m64, xmv, UNS, FULL);
                    x1 = accel__mac_z_ld64(cp1, m64, xmv, UNS, FULL);
                    x2 = accel__mac_z_ld64(cp2, m64, xmv, UNS, FULL);
                    x3 = accel__mac_z_ld64(cp3, m64, xmv, UNS, FULL);
                    ACCEL__MAC_ZQUAD(x0, x1, x2, x3);
                    wr = wc + ky * kw * C;
                    ACCEL__MAC_ZWQ(w0, w1, w2, w3, wr, 0u, kw);
                    ACCEL__MAC_ZD3K(0); ACCEL__MAC_ZD3K(1); ACCEL__MAC_ZD3K(2); ACCEL__MAC_ZD3K(3);
                }
                ob = (((size_t)b * g->out_h + oy) * g->out_w + ox) * C + c0;
                ACCEL__MAC_ZDWST(ACCEL__MAC_ZRQ(a0, 0), ACCEL__MAC_ZRQ(a1, 1), ACCEL__MAC_ZRQ(a2, 2),
                                 ACCEL__MAC_ZRQ(a3, 3), o + ob);
                if (ox + 1u < g->out_w)
                    ACCEL__MAC_ZDWST(ACCEL__MAC_ZRQ(b0, 0), ACCEL__MAC_ZRQ(b1, 1), ACCEL__MAC_ZRQ(b2, 2),
                                     ACCEL__MAC_ZRQ(b3, 3), o + ob + C);
            }
        }
#undef ACCEL__MAC_ZD3K
#undef ACCEL__MAC_ZD3C
}

/* Each specialized copy in a function of its own (sixteen copies inlined into one function
 * would share one stack frame holding the spills of all of them). */
#define ACCEL__MAC_ZDW_FN(NAME, KERN, U, F, P)                                                   \
    static __attribute__((noinline)) void NAME(const accel_mac_conv *g,                          \
                                               const accel_mac_quant *q, const int8_t *x,        \
                                               const int8_t *w, const int32_t *bias,             \
                                               uint8_t *o, size_t c0)                            \
    {                                                                                            \
        KERN(g, q, x, w, bias, o, c0, U, F, P);                                                  \
    }
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_0, accel__mac_z_dw3_t, 0, 0, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_1, accel__mac_z_dw3_t, 0, 0, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_2, accel__mac_z_dw3_t, 0, 1, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_3, accel__mac_z_dw3_t, 0, 1, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_4, accel__mac_z_dw3_t, 1, 0, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_5, accel__mac_z_dw3_t, 1, 0, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_6, accel__mac_z_dw3_t, 1, 1, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dw3_7, accel__mac_z_dw3_t, 1, 1, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_0, accel__mac_z_dw_t, 0, 0, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_1, accel__mac_z_dw_t, 0, 0, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_2, accel__mac_z_dw_t, 0, 1, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_3, accel__mac_z_dw_t, 0, 1, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_4, accel__mac_z_dw_t, 1, 0, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_5, accel__mac_z_dw_t, 1, 0, 1)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_6, accel__mac_z_dw_t, 1, 1, 0)
ACCEL__MAC_ZDW_FN(accel__mac_z_dwt_7, accel__mac_z_dw_t, 1, 1, 1)

static void accel__mac_z_dw(const accel_mac_conv *g, const accel_mac_quant *q, const int8_t *x,
                            const int8_t *w, const int32_t *bias, uint8_t *o)
{
    size_t c0, C = g->in_c;
    for (c0 = 0; c0 < C; c0 += 64u) {
        /* specialized copies: uint8/int8, a whole 64-channel block, per-tensor (PT: one set of
         * requantization constants, hoisted out of the pixel loop) */
        int v = (q->dtype == ACCEL_MAC_UINT8 ? 4 : 0) + (C - c0 >= 64u ? 2 : 0) + (q->count == 1);
        if (g->k_w <= 3u && g->k_h <= ACCEL__MAC_ZD3_H && g->stride_w == 1u &&
            accel__mac_one(g->dilation_w) == 1u) {
            switch (v) {
            case 0: accel__mac_z_dw3_0(g, q, x, w, bias, o, c0); break;
            case 1: accel__mac_z_dw3_1(g, q, x, w, bias, o, c0); break;
            case 2: accel__mac_z_dw3_2(g, q, x, w, bias, o, c0); break;
            case 3: accel__mac_z_dw3_3(g, q, x, w, bias, o, c0); break;
            case 4: accel__mac_z_dw3_4(g, q, x, w, bias, o, c0); break;
            case 5: accel__mac_z_dw3_5(g, q, x, w, bias, o, c0); break;
            case 6: accel__mac_z_dw3_6(g, q, x, w, bias, o, c0); break;
            default: accel__mac_z_dw3_7(g, q, x, w, bias, o, c0); break;
            }
            continue;
        }
        switch (v) {
        case 0: accel__mac_z_dwt_0(g, q, x, w, bias, o, c0); break;
        case 1: accel__mac_z_dwt_1(g, q, x, w, bias, o, c0); break;
        case 2: accel__mac_z_dwt_2(g, q, x, w, bias, o, c0); break;
        case 3: accel__mac_z_dwt_3(g, q, x, w, bias, o, c0); break;
        case 4: accel__mac_z_dwt_4(g, q, x, w, bias, o, c0); break;
        case 5: accel__mac_z_dwt_5(g, q, x, w, bias, o, c0); break;
        case 6: accel__mac_z_dwt_6(g, q, x, w, bias, o, c0); break;
        default: accel__mac_z_dwt_7(g, q, x, w, bias, o, c0); break;
        }
    }
}
#endif /* ACCEL_MAC_SIMD == 2 conv */

#if ACCEL_MAC_SIMD == 1
/* ---- @mac.conv: conv2d on AVX2, output channels in the vector lanes: per output pixel an im2col patch
 * of int16 values x + input_offset (taps outside the image 0, exactly the portable path's
 * skipped taps), filters packed as int16 w + filter_offset, a block of output channels at a
 * time into the caller's scratch (with the patches and biases), two taps x 8 channels per
 * register; vpmaddwd of a broadcast tap pair against it gives exact int32 pair sums (at
 * most 2 * 255 * 255), added modulo 2^32: bit-identical to the portable path. ---- */
#define ACCEL__MAC_YC_W 8192u /* packed filter int16 values per block (at least 8 channels) */
#define ACCEL__MAC_YC_K 1024u /* largest patch: fs rounded up to even */
#define ACCEL__MAC_YC_P 4u    /* output pixels per pass (4 x 2 accumulators) */
#define ACCEL__MAC_YC_N 256u  /* output channels per packed block at most */

/* Output channels per packed block (a multiple of 8) for patches of fs2 taps, ocg channels per
 * group. The scratch: 31 bytes of alignment, the block (ncap * fs2 int16), ACCEL__MAC_YC_P
 * patches (fs2 int16 each), ncap biases. */
static size_t accel__mac_y_ncap(size_t fs2, size_t ocg)
{
    size_t n = (ACCEL__MAC_YC_W / fs2) & ~(size_t)7;
    if (n < 8u) n = 8u;
    if (n > ACCEL__MAC_YC_N) n = ACCEL__MAC_YC_N;
    return n < ocg ? n : (ocg + 7u) & ~(size_t)7;
}
static size_t accel__mac_y_conv_scratch(size_t fs, size_t ocg)
{
    size_t fs2 = (fs + 1u) & ~(size_t)1, n = accel__mac_y_ncap(fs2, ocg);
    return 31u + (n + ACCEL__MAC_YC_P) * fs2 * 2u + 4u * n;
}

/* The patch of output pixel (b, oy, ox), group gi (channels gi*cg..), as int16 into d[0..fs). */
static void accel__mac_y_gather(const accel_mac_conv *g, const int8_t *x, uint32_t b,
                                uint32_t oy, uint32_t ox, size_t gi, size_t cg, int32_t fx,
                                int32_t xo, int16_t *d)
{
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w), ky, kx;
    size_t ic = (size_t)g->in_c, c;
    int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
    int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left, iy, ix;
    for (ky = 0; ky < g->k_h; ky++) {
        iy = iy0 + (int32_t)(ky * dh);
        for (kx = 0; kx < g->k_w; kx++, d += cg) {
            ix = ix0 + (int32_t)(kx * dw);
            if (iy < 0 || iy >= (int32_t)g->in_h || ix < 0 || ix >= (int32_t)g->in_w) {
                for (c = 0; c < cg; c++) d[c] = 0;
            } else {
                const int8_t *s =
                    x + (((size_t)b * g->in_h + (size_t)iy) * g->in_w + (size_t)ix) * ic + gi * cg;
                for (c = 0; c < cg; c++) d[c] = (int16_t)((s[c] ^ fx) + xo);
            }
        }
    }
}

/* NV (1 or 2) packed 8-channel blocks (kp 32-byte tap pairs each, the second at wp + kp)
 * against ACCEL__MAC_YC_P patches (rows of pw uint32 = tap pairs): acc[p*2 + v]. */
/* (named accumulators, not an array: GCC keeps an array of vectors in memory at -O2) */
#define ACCEL__MAC_YCB(P)                                                                        \
    do {                                                                                         \
        xb = _mm256_set1_epi32((int)patch[(size_t)(P) * pw + k]);                                \
        a##P##0 = _mm256_add_epi32(a##P##0, _mm256_madd_epi16(xb, w0));                          \
        if (NV == 2) a##P##1 = _mm256_add_epi32(a##P##1, _mm256_madd_epi16(xb, w1));             \
    } while (0)
ACCEL__MAC_AI void accel__mac_y_cblock(const uint32_t *patch, size_t pw, const __m256i *wp,
                                       size_t kp, __m256i *acc, const size_t NV)
{
    __m256i w0, w1 = _mm256_setzero_si256(), xb;
    __m256i a00 = w1, a01 = w1, a10 = w1, a11 = w1, a20 = w1, a21 = w1, a30 = w1, a31 = w1;
    size_t k;
    for (k = 0; k < kp; k++) {
        w0 = _mm256_load_si256(wp + k);
        if (NV == 2) w1 = _mm256_load_si256(wp + kp + k);
        ACCEL__MAC_YCB(0); ACCEL__MAC_YCB(1); ACCEL__MAC_YCB(2); ACCEL__MAC_YCB(3);
    }
    acc[0] = a00; acc[1] = a01; acc[2] = a10; acc[3] = a11;
    acc[4] = a20; acc[5] = a21; acc[6] = a30; acc[7] = a31;
}

/* conv2d, every group, fs = k_h*k_w*cg <= ACCEL__MAC_YC_K; sc: the scratch of
 * accel__mac_y_conv_scratch, 32-byte aligned. */
static __attribute__((noinline)) void accel__mac_y_conv(const accel_mac_conv *g, const accel_mac_quant *q, const int8_t *x,
                              const int8_t *w, const int32_t *bias, uint8_t *o, size_t fs,
                              size_t cg, size_t ocg, uint8_t *sc)
{
    __m256i *wp, acc[2 * ACCEL__MAC_YC_P];
    uint32_t *patch, *bv, t[8];
    uint32_t b = 0, oy = 0, ox = 0;
    int32_t fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0, xo = q->input_offset - fx;
    int32_t wo = q->filter_offset - fx;
    size_t fs2 = (fs + 1u) & ~(size_t)1, kp = fs2 / 2u, pw = kp, ncap, gi, s0, sn, j, k, vi, u;
    size_t npix = (size_t)g->batches * g->out_h * g->out_w, pix0, np, p, oc_n = g->out_c, ch;
    int16_t *wb, *pb;
    ncap = accel__mac_y_ncap(fs2, ocg);
    wp = (__m256i *)(void *)sc;
    wb = (int16_t *)(void *)sc;
    pb = (int16_t *)(void *)(sc + ncap * fs2 * 2u); /* (a multiple of 32 bytes) */
    patch = (uint32_t *)(void *)pb;
    bv = (uint32_t *)(void *)(pb + ACCEL__MAC_YC_P * fs2);
    ACCEL_MEMSET(patch, 0, ACCEL__MAC_YC_P * fs2 * 2u); /* the odd tap past fs meets zero filter values */
    for (gi = 0; gi * ocg < oc_n; gi++)
        for (s0 = 0; s0 < ocg; s0 += sn) {
            sn = ocg - s0 < ncap ? ocg - s0 : ncap;
            /* pack: block vi, pair k: int16 [j*2 + t] = filter (channel vi*8 + j, tap 2k + t) */
            ACCEL_MEMSET(wb, 0, ((sn + 7u) / 8u) * kp * 32u);
            for (j = 0; j < sn; j++) {
                const int8_t *fr = w + (gi * ocg + s0 + j) * fs;
                int16_t *dst = wb + (j / 8u) * kp * 16u + (j % 8u) * 2u;
                for (k = 0; k < fs; k++) dst[(k / 2u) * 16u + (k % 2u)] = (int16_t)((fr[k] ^ fx) + wo);
                bv[j] = bias ? (uint32_t)bias[gi * ocg + s0 + j] : 0u;
            }
            for (pix0 = 0; pix0 < npix; pix0 += np) {
                np = npix - pix0 < ACCEL__MAC_YC_P ? npix - pix0 : ACCEL__MAC_YC_P;
                for (p = 0; p < np; p++) {
                    accel__mac_y_gather(g, x, b, oy, ox, gi, cg, fx, xo, pb + p * pw * 2u);
                    if (++ox == g->out_w) {
                        ox = 0;
                        if (++oy == g->out_h) { oy = 0; b++; }
                    }
                }
                for (vi = 0; vi * 8u < sn; vi += 2u) {
                    size_t nv = sn - vi * 8u > 8u ? 2u : 1u;
                    if (nv == 2u) accel__mac_y_cblock(patch, pw, wp + vi * kp, kp, acc, 2);
                    else accel__mac_y_cblock(patch, pw, wp + vi * kp, kp, acc, 1);
                    for (u = 0; u < nv; u++) {
                        size_t c0 = vi * 8u + u * 8u, cnt = sn - c0 < 8u ? sn - c0 : 8u;
                        ch = gi * ocg + s0 + c0;
                        for (p = 0; p < np; p++) {
                            _mm256_storeu_si256((__m256i *)(void *)t,
                                                _mm256_add_epi32(acc[2 * p + u],
                                                                 _mm256_loadu_si256((const __m256i *)(const void *)(bv + c0))));
                            accel__mac_y_requant_n(t, cnt, q, ch, o + (pix0 + p) * oc_n + ch);
                        }
                    }
                }
            }
            b = 0; /* ox and oy have wrapped to 0 already */
        }
}
/* conv2d without caller scratch on AVX2 (no column dilation, one group, k_w*in_c a multiple of
 * 4): nothing packed or gathered into memory. Per group of 4 taps, the weights of 8 output
 * channels come from the filter rows by one vpgatherdd and are widened to int16 w + wo (two
 * vectors of 4 channels x 4 taps); each pixel's 4 taps, read where they lie, become int16
 * x + xo broadcast as a 64-bit pair (a tap outside the image is 0: exactly the term the
 * portable path skips); vpmaddwd then sums taps 0-1 and 2-3 of each channel in separate lanes,
 * added at the end. No offset decomposition: every product is the portable path's, every sum
 * the same one modulo 2^32. */
typedef struct {
    const accel_mac_conv *g;
    const int8_t *x;
    const int8_t *base[ACCEL__MAC_YC_P]; /* window corner of an inner pixel, else NULL */
    int32_t iy0[ACCEL__MAC_YC_P], ix0[ACCEL__MAC_YC_P];
    uint32_t b[ACCEL__MAC_YC_P];
    uint32_t lo[ACCEL__MAC_YC_P], hi[ACCEL__MAC_YC_P]; /* a window row's in-image bytes */
    size_t istep, rowb;
} accel__mac_yns;

/* The 4 taps at offset c of window row ky of pixel p as int16 x + xo (0 outside the image). */
ACCEL__MAC_AI __m256i accel__mac_y_nsx(const accel__mac_yns *s, size_t p, size_t ky, size_t c,
                                       __m128i xov, const int UNS)
{
    if (s->base[p]) {
        int32_t v;
        __m128i b;
        ACCEL_MEMCPY(&v, s->base[p] + ky * s->istep + c, 4);
        b = _mm_cvtsi32_si128(v);
        b = _mm_add_epi16(UNS ? _mm_cvtepu8_epi16(b) : _mm_cvtepi8_epi16(b), xov);
        return _mm256_broadcastq_epi64(b);
    } else {
        const accel_mac_conv *g = s->g;
        size_t C = g->in_c, t, i, lo = s->lo[p], hi = s->hi[p], i0;
        int32_t iy = s->iy0[p] + (int32_t)(ky * accel__mac_one(g->dilation_h));
        uint64_t v = 0;
        int32_t xo = (int16_t)_mm_extract_epi16(xov, 0), e;
        if (iy < 0 || iy >= (int32_t)g->in_h || lo >= hi) return _mm256_setzero_si256();
        /* byte i of the window row (lo <= i < hi) is input byte i0 + i (modulo arithmetic) */
        i0 = (((size_t)s->b[p] * g->in_h + (size_t)iy) * g->in_w) * C +
             ((size_t)(uint32_t)(s->ix0[p] + (int32_t)(lo / C)) * C - lo);
        for (t = 0; t < 4u; t++) {
            i = c + t;
            if (i < lo || i >= hi) continue;
            e = s->x[i0 + i];
            e = (UNS ? (int32_t)(uint8_t)e : e) + xo;
            v |= (uint64_t)(uint16_t)(int16_t)e << (16u * t);
        }
        return _mm256_set1_epi64x((long long)v);
    }
}

#define ACCEL__MAC_YNS(P)                                                                        \
    do {                                                                                         \
        xb = accel__mac_y_nsx(s, P, ky, c, xov, UNS);                                            \
        a##P##0 = _mm256_add_epi32(a##P##0, _mm256_madd_epi16(xb, v0));                          \
        a##P##1 = _mm256_add_epi32(a##P##1, _mm256_madd_epi16(xb, v1));                          \
    } while (0)
#define ACCEL__MAC_YNS_OUT(P)                                                                    \
    do {                                                                                         \
        if ((P) < np) {                                                                          \
            __m256i t_ = _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(a##P##0, a##P##1), perm); \
            if (bias) t_ = _mm256_add_epi32(t_, _mm256_maskload_epi32((const int *)(const void *)(bias + n0), bm)); \
            _mm256_storeu_si256((__m256i *)(void *)tmp, t_);                                     \
            accel__mac_y_requant_n(tmp, cnt, q, n0, o + (pix0 + (P)) * oc_n + n0);               \
        }                                                                                        \
    } while (0)
/* Output channels n0.. (cnt <= 8) of the np pixels from pix0 that s describes. */
ACCEL__MAC_AI void accel__mac_y_ns_t(const accel__mac_yns *s, const accel_mac_quant *q,
                                     const int8_t *w, const int32_t *bias, size_t fs, size_t n0,
                                     size_t cnt, uint8_t *o, size_t pix0, size_t np,
                                     const int UNS)
{
    const accel_mac_conv *g = s->g;
    size_t ky, c, kh = g->k_h, rowb = s->rowb, oc_n = g->out_c;
    __m256i idx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                     _mm256_set1_epi32((int)fs));
    __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i bm = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)cnt), lanes);
    __m256i perm = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7), z = _mm256_setzero_si256();
    __m128i xov = _mm_set1_epi16((short)q->input_offset);
    __m256i wov = _mm256_set1_epi16((short)q->filter_offset), gw, v0, v1, xb;
    __m256i a00 = z, a01 = z, a10 = z, a11 = z, a20 = z, a21 = z, a30 = z, a31 = z;
    uint32_t tmp[8];
    const int8_t *wb = w + n0 * fs;
    for (ky = 0; ky < kh; ky++)
        for (c = 0; c < rowb; c += 4u) {
            gw = _mm256_mask_i32gather_epi32(z, (const int *)(const void *)(wb + ky * rowb + c),
                                             idx, bm, 1);
            v0 = _mm256_add_epi16(UNS ? _mm256_cvtepu8_epi16(_mm256_castsi256_si128(gw))
                                      : _mm256_cvtepi8_epi16(_mm256_castsi256_si128(gw)), wov);
            v1 = _mm256_add_epi16(UNS ? _mm256_cvtepu8_epi16(_mm256_extracti128_si256(gw, 1))
                                      : _mm256_cvtepi8_epi16(_mm256_extracti128_si256(gw, 1)), wov);
            ACCEL__MAC_YNS(0); ACCEL__MAC_YNS(1); ACCEL__MAC_YNS(2); ACCEL__MAC_YNS(3);
        }
    ACCEL__MAC_YNS_OUT(0); ACCEL__MAC_YNS_OUT(1); ACCEL__MAC_YNS_OUT(2); ACCEL__MAC_YNS_OUT(3);
}
static __attribute__((noinline)) void accel__mac_y_ns_0(const accel__mac_yns *s, const accel_mac_quant *q,
                                                        const int8_t *w, const int32_t *bias,
                                                        size_t fs, size_t n0, size_t cnt,
                                                        uint8_t *o, size_t pix0, size_t np)
{
    accel__mac_y_ns_t(s, q, w, bias, fs, n0, cnt, o, pix0, np, 0);
}
static __attribute__((noinline)) void accel__mac_y_ns_1(const accel__mac_yns *s, const accel_mac_quant *q,
                                                        const int8_t *w, const int32_t *bias,
                                                        size_t fs, size_t n0, size_t cnt,
                                                        uint8_t *o, size_t pix0, size_t np)
{
    accel__mac_y_ns_t(s, q, w, bias, fs, n0, cnt, o, pix0, np, 1);
}

static __attribute__((noinline)) void accel__mac_y_conv_ns(const accel_mac_conv *g,
                                                           const accel_mac_quant *q,
                                                           const int8_t *x, const int8_t *w,
                                                           const int32_t *bias, uint8_t *o,
                                                           size_t fs)
{
    accel__mac_yns s;
    size_t npix = (size_t)g->batches * g->out_h * g->out_w, pix0, np, p, n0, cnt;
    size_t oc_n = g->out_c, kh = g->k_h, kw = g->k_w, C = g->in_c;
    uint32_t b, oy, ox, dh = accel__mac_one(g->dilation_h);
    s.g = g;
    s.x = x;
    s.rowb = kw * C;
    s.istep = (size_t)dh * g->in_w * C;
    for (n0 = 0; n0 < oc_n; n0 += 8u) {
        cnt = oc_n - n0 < 8u ? oc_n - n0 : 8u;
        b = oy = ox = 0;
        for (pix0 = 0; pix0 < npix; pix0 += np) {
            np = npix - pix0 < ACCEL__MAC_YC_P ? npix - pix0 : ACCEL__MAC_YC_P;
            for (p = 0; p < ACCEL__MAC_YC_P; p++) {
                int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
                int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                if (p >= np) { /* a short last pass: pixel 0 again, its results not stored */
                    s.base[p] = s.base[0];
                    s.iy0[p] = s.iy0[0];
                    s.ix0[p] = s.ix0[0];
                    s.b[p] = s.b[0];
                    s.lo[p] = s.lo[0];
                    s.hi[p] = s.hi[0];
                    continue;
                }
                s.iy0[p] = iy0;
                s.ix0[p] = ix0;
                s.b[p] = b;
                {
                    uint32_t lx0, lx1;
                    accel__mac_xrange(ix0, 1u, g->k_w, g->in_w, &lx0, &lx1);
                    s.lo[p] = lx0 * (uint32_t)C;
                    s.hi[p] = lx1 * (uint32_t)C;
                }
                s.base[p] = iy0 >= 0 && ix0 >= 0 &&
                                    (size_t)(uint32_t)iy0 + (kh - 1u) * dh < g->in_h &&
                                    (size_t)(uint32_t)ix0 + kw <= g->in_w
                                ? x + (((size_t)b * g->in_h + (uint32_t)iy0) * g->in_w + (uint32_t)ix0) * C
                                : NULL;
                if (++ox == g->out_w) {
                    ox = 0;
                    if (++oy == g->out_h) { oy = 0; b++; }
                }
            }
            if (q->dtype == ACCEL_MAC_UINT8) accel__mac_y_ns_1(&s, q, w, bias, fs, n0, cnt, o, pix0, np);
            else accel__mac_y_ns_0(&s, q, w, bias, fs, n0, cnt, o, pix0, np);
        }
    }
}

#endif /* ACCEL_MAC_SIMD == 1 conv */

#if ACCEL_MAC_SIMD == 1
/* ---- @mac.conv: depthwise conv2d on AVX2 (depth multiplier 1, k_h*k_w <= ACCEL__MAC_YD_T), channels
 * [0, in_c & ~7) in passes of up to 32 (NV registers of 8 int32 lanes); the portable loop does
 * the rest. As in accel__mac_z_dw_t, a tap outside the image reads the zero point, so
 * sum (x + xo)(w + wo) over the in-image taps = sum over all taps of x'(w + wo) plus
 * xo * sum (w + wo), which goes into the bias; each product is one vpmaddwd lane (x' in the
 * low 16 bits, w + wo in the low 16 bits over a zero high half). Sums wrap modulo 2^32. ---- */
#define ACCEL__MAC_YD_T 64u
ACCEL__MAC_AI __m256i accel__mac_y_ld8(const int8_t *p, const int UNS)
{
    __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)p);
    return UNS ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
}

/* The weight of tap i, channels c0 + 8v.., as vpmaddwd takes it: w + wo in the low 16 bits of
 * each lane, 0 above; read from the filter at each use (no packed copy on the stack). */
ACCEL__MAC_AI __m256i accel__mac_y_w8(const int8_t *p, __m256i wom, const int UNS)
{
    return _mm256_and_si256(_mm256_add_epi32(accel__mac_y_ld8(p, UNS), wom), _mm256_set1_epi32(0xFFFF));
}

/* The pointer of tap (ky, kx) of the window at (iy0, ix0) whose in-image taps are rows
 * [ky0, ky1) and columns [kx0, kx1), channel c0; zp outside. */
ACCEL__MAC_AI const int8_t *accel__mac_y_tap(const accel_mac_conv *g, const int8_t *x, size_t c0,
                                             uint32_t b, int32_t iy0, int32_t ix0, size_t ky,
                                             size_t kx, uint32_t ky0, uint32_t ky1, uint32_t kx0,
                                             uint32_t kx1, const int8_t *zp)
{
    if (ky < ky0 || ky >= ky1 || kx < kx0 || kx >= kx1) return zp;
    return x + (((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * accel__mac_one(g->dilation_h)))) *
                    g->in_w + (size_t)(uint32_t)(ix0 + (int32_t)(kx * accel__mac_one(g->dilation_w)))) * g->in_c + c0;
}

/* Two horizontally adjacent output pixels per pass (each weight widened once for both), NV
 * vectors of 8 channels each, in named accumulators (an array stays in memory at -O2). */
#define ACCEL__MAC_YDW(V)                                                                        \
    do {                                                                                         \
        if (NV > (V)) {                                                                          \
            wv = accel__mac_y_w8(wi + (V) * 8u, wom, UNS);                                       \
            a0##V = _mm256_add_epi32(a0##V, _mm256_madd_epi16(accel__mac_y_ld8(tp0 + (V) * 8u, UNS), wv)); \
            a1##V = _mm256_add_epi32(a1##V, _mm256_madd_epi16(accel__mac_y_ld8(tp1 + (V) * 8u, UNS), wv)); \
        }                                                                                        \
    } while (0)
ACCEL__MAC_AI void accel__mac_y_dw_t(const accel_mac_conv *g, const accel_mac_quant *q,
                                     const int8_t *x, const int8_t *w, const int32_t *bias,
                                     uint8_t *o, size_t c0, const int UNS, const size_t NV)
{
    __m256i a00, a01, a02, a03, a10, a11, a12, a13, t, wv, bvv;
    __m256i wom = _mm256_set1_epi32(q->filter_offset);
    __m256i xom = _mm256_set1_epi32(q->input_offset);
    uint32_t tmp[32], bsum[32];
    int8_t zpb[32];
    const int8_t *tp0, *tp1, *wi;
    size_t C = g->in_c, v, i, nt = (size_t)g->k_h * g->k_w, ob, kw = g->k_w, ky, kx;
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w);
    uint32_t b, oy, ox, ky0, ky1, kx0, kx1, lx0, lx1;
    ACCEL_MEMSET(zpb, (int)(((uint32_t)(-q->input_offset)) & 0xFFu), sizeof zpb);
    for (v = 0; v < NV; v++) {
        bvv = bias ? _mm256_loadu_si256((const __m256i *)(const void *)(bias + c0 + v * 8u))
                   : _mm256_setzero_si256();
        for (i = 0; i < nt; i++) {
            t = _mm256_add_epi32(accel__mac_y_ld8(w + i * C + c0 + v * 8u, UNS), wom);
            bvv = _mm256_add_epi32(bvv, _mm256_mullo_epi32(t, xom));
        }
        _mm256_storeu_si256((__m256i *)(void *)(bsum + v * 8u), bvv);
    }
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_xrange(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox += 2u) {
                int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                int32_t jx0 = ix0 + (int32_t)g->stride_w; /* the right pixel (if any) */
                int two = ox + 1u < g->out_w;
                accel__mac_xrange(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
                accel__mac_xrange(jx0, dw, g->k_w, g->in_w, &lx0, &lx1);
                a00 = a10 = _mm256_loadu_si256((const __m256i *)(const void *)bsum);
                a01 = a11 = _mm256_loadu_si256((const __m256i *)(const void *)(bsum + 8));
                a02 = a12 = _mm256_loadu_si256((const __m256i *)(const void *)(bsum + 16));
                a03 = a13 = _mm256_loadu_si256((const __m256i *)(const void *)(bsum + 24));
                for (i = 0, ky = 0, kx = 0; i < nt; i++) { /* taps outside the image: the zero point */
                    tp0 = accel__mac_y_tap(g, x, c0, b, iy0, ix0, ky, kx, ky0, ky1, kx0, kx1, zpb);
                    tp1 = two ? accel__mac_y_tap(g, x, c0, b, iy0, jx0, ky, kx, ky0, ky1, lx0, lx1, zpb) : tp0;
                    if (++kx == kw) { kx = 0; ky++; }
                    wi = w + i * C + c0;
                    ACCEL__MAC_YDW(0); ACCEL__MAC_YDW(1); ACCEL__MAC_YDW(2); ACCEL__MAC_YDW(3);
                }
                ob = (((size_t)b * g->out_h + oy) * g->out_w + ox) * C + c0;
                _mm256_storeu_si256((__m256i *)(void *)tmp, a00);
                if (NV > 1) _mm256_storeu_si256((__m256i *)(void *)(tmp + 8), a01);
                if (NV > 2) _mm256_storeu_si256((__m256i *)(void *)(tmp + 16), a02);
                if (NV > 3) _mm256_storeu_si256((__m256i *)(void *)(tmp + 24), a03);
                accel__mac_y_requant_n(tmp, NV * 8u, q, c0, o + ob);
                if (two) {
                    _mm256_storeu_si256((__m256i *)(void *)tmp, a10);
                    if (NV > 1) _mm256_storeu_si256((__m256i *)(void *)(tmp + 8), a11);
                    if (NV > 2) _mm256_storeu_si256((__m256i *)(void *)(tmp + 16), a12);
                    if (NV > 3) _mm256_storeu_si256((__m256i *)(void *)(tmp + 24), a13);
                    accel__mac_y_requant_n(tmp, NV * 8u, q, c0, o + ob + C);
                }
            }
        }
}
#undef ACCEL__MAC_YDW

/* Each specialized copy in a function of its own (eight inlined into one function would share
 * one stack frame holding the spills of all of them). */
#define ACCEL__MAC_YDW_FN(NAME, U, N)                                                            \
    static __attribute__((noinline)) void NAME(const accel_mac_conv *g,                          \
                                               const accel_mac_quant *q, const int8_t *x,        \
                                               const int8_t *w, const int32_t *bias,             \
                                               uint8_t *o, size_t c0)                            \
    {                                                                                            \
        accel__mac_y_dw_t(g, q, x, w, bias, o, c0, U, N);                                        \
    }
ACCEL__MAC_YDW_FN(accel__mac_y_dw_2, 0, 1)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_3, 1, 1)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_4, 0, 2)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_5, 1, 2)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_6, 0, 3)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_7, 1, 3)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_8, 0, 4)
ACCEL__MAC_YDW_FN(accel__mac_y_dw_9, 1, 4)

/* Returns how many leading channels it computed (a multiple of 8). */
static size_t accel__mac_y_dw(const accel_mac_conv *g, const accel_mac_quant *q, const int8_t *x,
                              const int8_t *w, const int32_t *bias, uint8_t *o)
{
    size_t c0, c8 = (size_t)g->in_c & ~(size_t)7, nv;
    int uns = q->dtype == ACCEL_MAC_UINT8;
    for (c0 = 0; c0 < c8; c0 += nv * 8u) {
        nv = (c8 - c0) / 8u > 4u ? 4u : (c8 - c0) / 8u;
        switch (nv * 2u + (size_t)uns) { /* specialized copies */
        case 2: accel__mac_y_dw_2(g, q, x, w, bias, o, c0); break;
        case 3: accel__mac_y_dw_3(g, q, x, w, bias, o, c0); break;
        case 4: accel__mac_y_dw_4(g, q, x, w, bias, o, c0); break;
        case 5: accel__mac_y_dw_5(g, q, x, w, bias, o, c0); break;
        case 6: accel__mac_y_dw_6(g, q, x, w, bias, o, c0); break;
        case 7: accel__mac_y_dw_7(g, q, x, w, bias, o, c0); break;
        case 8: accel__mac_y_dw_8(g, q, x, w, bias, o, c0); break;
        default: accel__mac_y_dw_9(g, q, x, w, bias, o, c0); break;
        }
    }
    return c8;
}
#endif /* ACCEL_MAC_SIMD == 1 depthwise */

#if ACCEL_MAC_FAST
/* the longest filter whose patch goes on the stack (every build has a small stack bound; x86
   SIMD builds come here without caller scratch, under deeper callers); a longer filter takes
   the slower loop below */
#if ACCEL_MAC_SIMD == 1 || ACCEL_MAC_SIMD == 2
#define ACCEL__MAC_PATCH 256u
#else
#define ACCEL__MAC_PATCH 512u
#endif
/* conv2d (groups 1) through an im2col patch on the stack: one output pixel's taps gathered in
 * filter order, taps outside the image set to the input zero point so that they add exactly 0
 * after the offset; then one long dot product per output channel (a filter is contiguous in
 * OHWI) instead of a short one per filter row. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline)) /* its patch stays out of the caller's frame (the deeper x86 path) */
#endif
static void accel__mac_conv_patch(const accel_mac_conv *g, const accel_mac_quant *q,
                                  const int8_t *x, const int8_t *w, const int32_t *bias,
                                  uint8_t *o, size_t fs)
{
    int8_t patch[ACCEL__MAC_PATCH], *dst;
    size_t ic = (size_t)g->in_c, oc_n = (size_t)g->out_c, oc, r, nr, pix = 0;
    uint32_t b, oy, ox, ky, kx, acc[ACCEL__MAC_BLOCK];
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w);
    int32_t fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0, iy, ix;
    int zp = (int)((uint32_t)(-q->input_offset) & 0xFFu);
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++)
            for (ox = 0; ox < g->out_w; ox++, pix++) {
                dst = patch;
                for (ky = 0; ky < g->k_h; ky++) {
                    iy = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top + (int32_t)(ky * dh);
                    for (kx = 0; kx < g->k_w; kx++, dst += ic) {
                        ix = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left +
                             (int32_t)(kx * dw);
                        if (iy < 0 || iy >= (int32_t)g->in_h || ix < 0 || ix >= (int32_t)g->in_w)
                            ACCEL_MEMSET(dst, zp, ic);
                        else
                            ACCEL_MEMCPY(dst,
                                         x + (((size_t)b * g->in_h + (size_t)iy) * g->in_w +
                                              (size_t)ix) * ic,
                                         ic);
                    }
                }
                for (oc = 0; oc < oc_n; oc += nr) {
                    nr = oc_n - oc < ACCEL__MAC_BLOCK ? oc_n - oc : ACCEL__MAC_BLOCK;
                    for (r = 0; r < nr; r++) acc[r] = bias ? (uint32_t)bias[oc + r] : 0u;
                    accel__mac_dot_rows(patch, w + oc * fs, fs, nr, fs, fx, q->input_offset - fx,
                                        q->filter_offset - fx, acc);
                    accel__mac_requant_n(acc, nr, q, oc, o + pix * oc_n + oc);
                }
            }
}
#endif

#if ACCEL__MAC_BLK
/* ---- @mac.conv: microcontroller conv2d. With scratch: per pass, ACCEL__MAC_PIX output pixels are
 * gathered (im2col) into the caller's scratch as int16 values x + input_offset (0 for taps
 * outside the image, which TFLite skips), so the inner loop loads no offset and unpacks no
 * input byte; then each filter row meets all of them: DSP, 4 pixels x 1 channel (one word of
 * filter bytes unpacked by 2 SXTB16 serves 8 SMLAD); portable, 2 pixels x 2 channels (4
 * multiply-adds per 4 loads). A filter offset leaves the loop as wo * (the pixel's patch sum).
 * Without scratch: the FC kernel over each filter row's taps (contiguous when dilation_w and
 * groups are 1), the input read in place. ---- */

/* int16 index of element k (of fs) of pixel p in the patch. DSP: groups of 4 elements, pixel p
 * holding (k0, k2) then (k1, k3) (the halves SXTB16 makes of a filter word), 4 pixels a group;
 * the last fs % 4 elements one after the other, 4 pixels each. Portable: k * 3 + p. */
ACCEL__MAC_AI size_t accel__mac_pidx(size_t k, size_t p, size_t k4)
{
#if ACCEL__MAC_DSP
    return k < k4 ? (k >> 2) * 16u + p * 4u + ((k & 1u) << 1) + ((k >> 1) & 1u)
                  : k4 * 4u + (k - k4) * 4u + p;
#else
    (void)k4;
    return k * ACCEL__MAC_PIX + p;
#endif
}

#if ACCEL__MAC_DSP
/* cg bytes at sp (NULL: outside the image) as pixel p's words of the patch groups at d. */
ACCEL__MAC_AI void accel__mac_gather4(const int8_t *sp, uint32_t *d, size_t cg, uint32_t xo2,
                                      const int U)
{
    const int8_t *e;
    uint32_t v;
    if (!sp) {
        for (; cg > 0; cg -= 4u, d += 8) d[0] = d[1] = 0;
        return;
    }
    e = sp + cg; /* not before the check: an offset on a null pointer is undefined */
    for (; sp != e; sp += 4, d += 8) {
        v = accel__mac_ld32(sp);
        d[0] = accel__mac_xta(xo2, v, U, 0);
        d[1] = accel__mac_xta(xo2, v, U, 1);
    }
}
#else
/* cg bytes at sp (NULL: outside the image) as x + xo into d[0], d[PIX], d[2 PIX], ... */
ACCEL__MAC_AI void accel__mac_gather1(const int8_t *sp, int16_t *d, size_t cg, int32_t xo,
                                      const int U)
{
    const int8_t *e;
    if (!sp) {
        for (; cg > 0; cg--, d += ACCEL__MAC_PIX) *d = 0;
        return;
    }
    e = sp + cg; /* not before the check: an offset on a null pointer is undefined */
    for (; sp != e; d += ACCEL__MAC_PIX) *d = (int16_t)(accel__mac_ld8(sp++, U) + xo);
}
#endif

/* The patch of output pixel (b, oy, ox), group gi, into pixel slot p. */
static void accel__mac_gather(const accel_mac_conv *g, const int8_t *x, uint32_t b, uint32_t oy,
                              uint32_t ox, size_t gi, size_t cg, int32_t xo, int u,
                              int16_t *patch, size_t p)
{
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w), ky, kx;
    int32_t iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top, iy, ix;
    int32_t ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
    size_t k = 0;
#if ACCEL__MAC_DSP
    size_t c, k4 = ((size_t)g->k_h * g->k_w * cg) & ~(size_t)3;
#endif
    const int8_t *sp, *row;
    for (ky = 0; ky < g->k_h; ky++) {
        iy = iy0 + (int32_t)(ky * dh);
        row = iy >= 0 && iy < (int32_t)g->in_h
                  ? x + ((size_t)b * g->in_h + (size_t)iy) * g->in_w * g->in_c + gi * cg
                  : NULL;
        for (kx = 0; kx < g->k_w; kx++, k += cg) {
            ix = ix0 + (int32_t)(kx * dw);
            sp = row && ix >= 0 && ix < (int32_t)g->in_w ? row + (size_t)ix * g->in_c : NULL;
#if ACCEL__MAC_DSP
            if ((cg & 3u) == 0) { /* whole groups: 4 bytes become the pixel's 2 words */
                uint32_t *d = (uint32_t *)(void *)patch + (k >> 2) * 8u + p * 2u;
                uint32_t xo2 = ((uint32_t)xo & 0xFFFFu) * 0x10001u;
                if (u) accel__mac_gather4(sp, d, cg, xo2, 1);
                else accel__mac_gather4(sp, d, cg, xo2, 0);
                continue;
            }
            for (c = 0; c < cg; c++)
                patch[accel__mac_pidx(k + c, p, k4)] =
                    (int16_t)(sp ? accel__mac_ld8(sp + c, u) + xo : 0);
#else
            if (u) accel__mac_gather1(sp, patch + k * ACCEL__MAC_PIX + p, cg, xo, 1);
            else accel__mac_gather1(sp, patch + k * ACCEL__MAC_PIX + p, cg, xo, 0);
#endif
        }
    }
}

#if ACCEL__MAC_DSP
/* One patch group (4 elements of 4 pixels) against one filter word: 15 instructions for 16
 * products. X is the byte-extend mnemonic (sxtb16, uxtb16). */
#define ACCEL__MAC_PXG(X)                                                                        \
    "ldr %[t], [%[w]], #4\n\t"                                                                   \
    "ldrd %[x0], %[x1], [%[xp]], #8\n\t" X " %[u], %[t]\n\t" X " %[t], %[t], ror #8\n\t"         \
    "smlad %[a0], %[x0], %[u], %[a0]\n\t"                                                        \
    "smlad %[a0], %[x1], %[t], %[a0]\n\t"                                                        \
    "ldrd %[x0], %[x1], [%[xp]], #8\n\t"                                                         \
    "smlad %[a1], %[x0], %[u], %[a1]\n\t"                                                        \
    "smlad %[a1], %[x1], %[t], %[a1]\n\t"                                                        \
    "ldrd %[x0], %[x1], [%[xp]], #8\n\t"                                                         \
    "smlad %[a2], %[x0], %[u], %[a2]\n\t"                                                        \
    "smlad %[a2], %[x1], %[t], %[a2]\n\t"                                                        \
    "ldrd %[x0], %[x1], [%[xp]], #8\n\t"                                                         \
    "smlad %[a3], %[x0], %[u], %[a3]\n\t"                                                        \
    "smlad %[a3], %[x1], %[t], %[a3]\n\t"
#define ACCEL__MAC_PXOUT                                                                         \
    [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w] "+r"(w), [xp] "+r"(xp),      \
        [t] "=&r"(t), [u] "=&r"(u), [x0] "=&r"(x0), [x1] "=&r"(x1)

/* acc[p] += sum_k patch(k, p) * w[k] for the 4 pixel slots. Two groups a turn of the loop. */
ACCEL__MAC_AI void accel__mac_conv_px_t(const int16_t *patch, const int8_t *w, size_t fs,
                                        uint32_t *acc, const int U)
{
    const uint32_t *xp = (const uint32_t *)(const void *)patch;
    const int8_t *e = w + (fs & ~(size_t)7);
    const int16_t *tp = patch + (fs & ~(size_t)3) * 4u;
    uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, t, u, x0, x1;
    int32_t wk;
    if (fs & 4u) { /* an odd group first */
        if (U) __asm__(ACCEL__MAC_PXG("uxtb16") : ACCEL__MAC_PXOUT : : "memory");
        else __asm__(ACCEL__MAC_PXG("sxtb16") : ACCEL__MAC_PXOUT : : "memory");
        e += 4;
    }
    if (w != e) {
        if (U)
            __asm__("1:\n\t" ACCEL__MAC_PXG("uxtb16") ACCEL__MAC_PXG("uxtb16")
                    "cmp %[w], %[e]\n\t"
                    "bne 1b"
                    : ACCEL__MAC_PXOUT
                    : [e] "r"(e)
                    : "cc", "memory");
        else
            __asm__("1:\n\t" ACCEL__MAC_PXG("sxtb16") ACCEL__MAC_PXG("sxtb16")
                    "cmp %[w], %[e]\n\t"
                    "bne 1b"
                    : ACCEL__MAC_PXOUT
                    : [e] "r"(e)
                    : "cc", "memory");
    }
    for (fs &= 3u; fs > 0; fs--, tp += 4) {
        wk = accel__mac_ld8(w++, U);
        a0 += (uint32_t)(tp[0] * wk);
        a1 += (uint32_t)(tp[1] * wk);
        a2 += (uint32_t)(tp[2] * wk);
        a3 += (uint32_t)(tp[3] * wk);
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}
/* The filter rows w, w + fs, ... (nc of them) against the patch's pixels, plus bias[c] (bias
 * may be NULL) and s[p], into acc[c * 4 + p]. */
ACCEL__MAC_NOINLINE static void accel__mac_conv_rows(const int16_t *patch, const int8_t *w,
                                                     size_t fs, size_t nc, const int32_t *bias,
                                                     const uint32_t *s, uint32_t *acc, int u)
{
    const int8_t *e = w + nc * fs;
    uint32_t b;
    for (; w != e; w += fs, acc += 4) {
        if (u) accel__mac_conv_px_t(patch, w, fs, acc, 1);
        else accel__mac_conv_px_t(patch, w, fs, acc, 0);
        b = bias ? (uint32_t)*bias++ : 0u;
        acc[0] += b + s[0];
        acc[1] += b + s[1];
        acc[2] += b + s[2];
        acc[3] += b + s[3];
    }
}
#else
/* acc[c * 3 + p] = sum_k patch(k, p) * w_c[k] + b[c] + s[p] for 3 pixels x 2 filter rows w0,
 * w1: 6 accumulators, 4 pointers and 3 values fill 13 registers. Four elements a turn, so that
 * the loads use immediate offsets. int32 sums: GCC keeps them as multiply-add chains
 * (unsigned ones it reassociates); fs <= ACCEL__MAC_CHUNK, so they cannot overflow. */
#define ACCEL__MAC_PX32(i)                                                                       \
    c0 = accel__mac_ld8(w0 + (i), U), c1 = accel__mac_ld8(w1 + (i), U);                         \
    x = patch[(size_t)3 * (i)], a0 += x * c0, b0 += x * c1;                                      \
    x = patch[(size_t)3 * (i) + 1], a1 += x * c0, b1 += x * c1;                                  \
    x = patch[(size_t)3 * (i) + 2], a2 += x * c0, b2 += x * c1
ACCEL__MAC_AI void accel__mac_conv_px_t(const int16_t *patch, const int8_t *w0, const int8_t *w1,
                                        size_t fs, const uint32_t *b, const uint32_t *s,
                                        uint32_t *acc, const int U)
{
    int32_t a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0, x, c0, c1;
    const int8_t *e = w0 + (fs & ~(size_t)(ACCEL__MAC_UNROLL - 1u));
    while (w0 != e) {
        ACCEL__MAC_PX32(0);
#if ACCEL__MAC_UNROLL > 1
        ACCEL__MAC_PX32(1);
        ACCEL__MAC_PX32(2);
        ACCEL__MAC_PX32(3);
        ACCEL__MAC_PX32(4);
        ACCEL__MAC_PX32(5);
        ACCEL__MAC_PX32(6);
        ACCEL__MAC_PX32(7);
#endif
        patch += (size_t)3 * ACCEL__MAC_UNROLL;
        w0 += ACCEL__MAC_UNROLL;
        w1 += ACCEL__MAC_UNROLL;
    }
#if ACCEL__MAC_UNROLL > 1
    for (e += fs & (ACCEL__MAC_UNROLL - 1u); w0 != e; patch += 3, w0++, w1++) {
        ACCEL__MAC_PX32(0);
    }
#endif
    acc[0] = (uint32_t)a0 + b[0] + s[0];
    acc[1] = (uint32_t)a1 + b[0] + s[1];
    acc[2] = (uint32_t)a2 + b[0] + s[2];
    acc[3] = (uint32_t)b0 + b[1] + s[0];
    acc[4] = (uint32_t)b1 + b[1] + s[1];
    acc[5] = (uint32_t)b2 + b[1] + s[2];
}
/* The filter rows w, w + fs, ... (nc of them) against the patch's pixels, plus bias[c] (bias
 * may be NULL) and s[p], into acc[c * 3 + p], two rows a turn (an odd last row twice; acc has
 * room for it). */
ACCEL__MAC_NOINLINE static void accel__mac_conv_rows(const int16_t *patch, const int8_t *w,
                                                     size_t fs, size_t nc, const int32_t *bias,
                                                     const uint32_t *s, uint32_t *acc, int u)
{
    size_t c;
    uint32_t b[2];
    for (c = 0; c < nc; c += 2u, w += 2u * fs, acc += 6) {
        const int8_t *w1 = c + 1u < nc ? w + fs : w;
        b[0] = bias ? (uint32_t)bias[c] : 0u;
        b[1] = bias && c + 1u < nc ? (uint32_t)bias[c + 1u] : 0u;
        if (u) accel__mac_conv_px_t(patch, w, w1, fs, b, s, acc, 1);
        else accel__mac_conv_px_t(patch, w, w1, fs, b, s, acc, 0);
    }
}
#endif

/* conv2d through the patch (4-byte aligned, ACCEL__MAC_PIX * fs int16). The sums of up to
 * ACCEL__MAC_RB channels go to a stack block (256 bytes), requantized together. */
#define ACCEL__MAC_RB 16u
static void accel__mac_mcu_conv(const accel_mac_conv *g, const accel_mac_quant *q,
                                const int8_t *x, const int8_t *w, const int32_t *bias, uint8_t *o,
                                size_t fs, size_t cg, size_t ocg, int16_t *patch)
{
    size_t npix = (size_t)g->batches * g->out_h * g->out_w, pix0, np, p, ob, oce, nb, gi, k;
    size_t oc_n = g->out_c, k4 = fs & ~(size_t)3;
    uint32_t b, oy, ox, acc[(ACCEL__MAC_RB + 1u) * ACCEL__MAC_PIX], s[ACCEL__MAC_PIX];
    int u = q->dtype == ACCEL_MAC_UINT8;
    int32_t xo = q->input_offset, wo = q->filter_offset;
    accel__mac_rqc r;
    accel__mac_rq_init(&r, q, g->out_c);
    for (gi = 0; gi * ocg < oc_n; gi++) {
        b = oy = ox = 0;
        for (pix0 = 0; pix0 < npix; pix0 += np) {
            np = npix - pix0 < ACCEL__MAC_PIX ? npix - pix0 : ACCEL__MAC_PIX;
            for (p = 0; p < ACCEL__MAC_PIX; p++) {
                s[p] = 0;
                if (p >= np) { /* an unused slot of the last pass: defined values */
                    for (k = 0; k < fs; k++) patch[accel__mac_pidx(k, p, k4)] = 0;
                    continue;
                }
                accel__mac_gather(g, x, b, oy, ox, gi, cg, xo, u, patch, p);
                if (++ox == g->out_w) {
                    ox = 0;
                    if (++oy == g->out_h) {
                        oy = 0;
                        b++;
                    }
                }
                if (wo != 0) {
                    uint32_t t = 0;
                    for (k = 0; k < fs; k++) {
                        int32_t v = patch[accel__mac_pidx(k, p, k4)];
                        t += (uint32_t)v;
                    }
                    s[p] = t * (uint32_t)wo;
                }
            }
            oce = (gi + 1u) * ocg;
            for (ob = gi * ocg; ob < oce; ob += nb) {
                nb = oce - ob < ACCEL__MAC_RB ? oce - ob : ACCEL__MAC_RB;
                accel__mac_conv_rows(patch, w + ob * fs, fs, nb, bias ? bias + ob : NULL, s, acc,
                                     u);
                accel__mac_rq_acc(acc, nb, np, &r, ob, o + pix0 * oc_n + ob, oc_n);
            }
        }
    }
}

/* conv2d without scratch: the FC kernel over each filter row's in-image taps. */
static void accel__mac_mcu_conv_direct(const accel_mac_conv *g, const accel_mac_quant *q,
                                       const int8_t *x, const int8_t *w, const int32_t *bias,
                                       uint8_t *o, size_t fs, size_t cg, size_t ocg)
{
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w);
    uint32_t b, oy, ox, ky, kx, ky0, ky1, kx0, kx1, acc[ACCEL__MAC_FR], s;
    int32_t iy0, ix0, xo = q->input_offset, wo = q->filter_offset;
    size_t gi, oc, oce, nr, r, xi, ic = g->in_c, kw = g->k_w, ob;
    int u = q->dtype == ACCEL_MAC_UINT8, run = dw == 1 && cg == ic;
    const int8_t *xp;
    accel__mac_rqc rq;
    accel__mac_rq_init(&rq, q, g->out_c);
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_range(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox++) {
                ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                accel__mac_range(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
                ob = (((size_t)b * g->out_h + oy) * g->out_w + ox) * g->out_c;
                for (gi = 0; gi * ocg < g->out_c; gi++) {
                    s = 0;
                    if (wo != 0) {
                        for (ky = ky0; ky < ky1; ky++)
                            for (kx = kx0; kx < kx1; kx++) {
                                xi = ((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) * g->in_w;
                                xp = x + (xi + (size_t)(uint32_t)(ix0 + (int32_t)(kx * dw))) * ic + gi * cg;
                                s += accel__mac_xsum(xp, cg, xo, u);
                            }
                        s *= (uint32_t)wo;
                    }
                    oce = (gi + 1u) * ocg;
                    for (oc = gi * ocg; oc < oce; oc += nr) {
                        nr = oce - oc < ACCEL__MAC_FR ? oce - oc : ACCEL__MAC_FR;
                        for (r = 0; r < ACCEL__MAC_FR; r++)
                            acc[r] = s + (bias && r < nr ? (uint32_t)bias[oc + r] : 0u);
                        for (ky = ky0; ky < ky1; ky++) {
                            xi = ((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) * g->in_w;
                            for (kx = kx0; kx < kx1; kx++) {
                                xp = x + (xi + (size_t)(uint32_t)(ix0 + (int32_t)(kx * dw))) * ic + gi * cg;
                                /* one call for the whole row when its taps are contiguous */
                                accel__mac_fc_rows(xp, w + oc * fs + ((size_t)ky * kw + kx) * cg, fs,
                                                   nr, run ? (kx1 - kx) * cg : cg, xo, acc, u);
                                if (run) break;
                            }
                        }
                        accel__mac_rq_ch(acc, nr, &rq, oc, o + ob + oc);
                    }
                }
            }
        }
}

#if ACCEL_MAC_MCU
/* ---- @mac.conv: microcontroller depthwise conv2d (depth multiplier 1): 4 channels a pass, their
 * filter taps packed on the stack as int16 w + filter_offset (DSP: the halves SXTAB16 makes
 * of an input word, channels 0,2 and 1,3), the input offset added as the bytes are unpacked,
 * taps outside the image skipped as in the reference loop; per output pixel the 4 sums stay
 * in registers (DSP: SMLABB/SMLATT). The other channels (in_c % 4) and depth multipliers > 1
 * take the portable loop. ---- */
#define ACCEL__MAC_DWT 25u /* taps per window at most (5x5): 200 bytes of packed filter */

/* Taps of the 4 channels: input bytes at P, packed filter words at W (2 a tap). DSP: one
 * volatile asm per tap or per row of 3 (so that the compiler keeps them in order instead of
 * hoisting every load); XA the byte-extend-and-add mnemonic, OFF the filter's byte offset. */
#if ACCEL__MAC_DSP
#define ACCEL__MAC_DWT1(XA, P, OFF)                                                              \
    "ldr %[t], " P "\n\t" XA " %[u], %[xo2], %[t]\n\t" XA " %[t], %[xo2], %[t], ror #8\n\t"      \
    "ldrd %[v0], %[v1], [%[wb], #" #OFF "]\n\t"                                                  \
    "smlabb %[a0], %[u], %[v0], %[a0]\n\t"                                                       \
    "smlatt %[a2], %[u], %[v0], %[a2]\n\t"                                                       \
    "smlabb %[a1], %[t], %[v1], %[a1]\n\t"                                                       \
    "smlatt %[a3], %[t], %[v1], %[a3]\n\t"
#define ACCEL__MAC_DWOUT                                                                         \
    [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t] "=&r"(t), [u] "=&r"(u),     \
        [v0] "=&r"(v0), [v1] "=&r"(v1)
#define ACCEL__MAC_DWROW(XA, P, O0, O1, O2)                                                      \
    __asm__ volatile(ACCEL__MAC_DWT1(XA, "[%[p]]", O0) ACCEL__MAC_DWT1(XA, "[%[p], %[d1]]", O1)  \
                     ACCEL__MAC_DWT1(XA, "[%[p], %[d2]]", O2)                                    \
                     : ACCEL__MAC_DWOUT                                                          \
                     : [p] "r"(P), [d1] "r"(dwc), [d2] "r"(dwc2), [wb] "r"(wq), [xo2] "r"(xo2)  \
                     : "memory")
#define ACCEL__MAC_DWTAP(P, W)                                                                   \
    do {                                                                                         \
        if (U)                                                                                   \
            __asm__ volatile(ACCEL__MAC_DWT1("uxtab16", "[%[p]]", 0)                             \
                             : ACCEL__MAC_DWOUT                                                  \
                             : [p] "r"(P), [wb] "r"(W), [xo2] "r"(xo2)                           \
                             : "memory");                                                        \
        else                                                                                     \
            __asm__ volatile(ACCEL__MAC_DWT1("sxtab16", "[%[p]]", 0)                             \
                             : ACCEL__MAC_DWOUT                                                  \
                             : [p] "r"(P), [wb] "r"(W), [xo2] "r"(xo2)                           \
                             : "memory");                                                        \
    } while (0)
#else
#define ACCEL__MAC_DWTAP(p, w)                                                                   \
    a0 += (accel__mac_ld8((p), U) + xo) * ((const int16_t *)(const void *)(w))[0],               \
    a1 += (accel__mac_ld8((p) + 1, U) + xo) * ((const int16_t *)(const void *)(w))[1],           \
    a2 += (accel__mac_ld8((p) + 2, U) + xo) * ((const int16_t *)(const void *)(w))[2],           \
    a3 += (accel__mac_ld8((p) + 3, U) + xo) * ((const int16_t *)(const void *)(w))[3]
/* the same without the input offset, which a whole window has in the bias */
#define ACCEL__MAC_DWTAPF(p, w)                                                                  \
    a0 += accel__mac_ld8((p), U) * ((const int16_t *)(const void *)(w))[0],                      \
    a1 += accel__mac_ld8((p) + 1, U) * ((const int16_t *)(const void *)(w))[1],                  \
    a2 += accel__mac_ld8((p) + 2, U) * ((const int16_t *)(const void *)(w))[2],                  \
    a3 += accel__mac_ld8((p) + 3, U) * ((const int16_t *)(const void *)(w))[3]
#endif
#define ACCEL__MAC_DWP 16u /* output pixels requantized together (256 bytes of sums) */

/* The 4 channels c0.. of every output pixel, wq the packed filter (2 words a tap). A whole
 * 3x3 window (the common case) is unrolled. */
ACCEL__MAC_AI void accel__mac_dw4_t(const accel_mac_conv *g, const int8_t *x, size_t c0,
                                    const uint32_t *wq, const uint32_t *bq, int32_t xo,
                                    const accel__mac_rqc *r, uint8_t *o, const int U)
{
    uint32_t dh = accel__mac_one(g->dilation_h), dw = accel__mac_one(g->dilation_w);
    uint32_t b, oy, ox, ky, ky0, ky1, kx0, kx1, acc[4u * ACCEL__MAC_DWP];
    size_t C = g->in_c, dwc = (size_t)dw * C, rs = (size_t)dh * g->in_w * C, np = 0, ob;
    int full3 = g->k_h == 3 && g->k_w == 3;
    int32_t iy0, ix0;
    const int8_t *xr, *xe, *xw;
    const uint32_t *wr, *bf;
#if ACCEL__MAC_DSP
    uint32_t xo2 = ((uint32_t)xo & 0xFFFFu) * 0x10001u, a0, a1, a2, a3, t, u, v0, v1;
    size_t dwc2 = 2u * dwc;
    (void)xo;
#else
    int32_t a0, a1, a2, a3;
#endif
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_range(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox++) {
                ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                accel__mac_range(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
                a0 = a1 = a2 = a3 = 0;
                bf = bq;
                /* the window's first in-image tap */
                xw = x + (((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)(ky0 * dh))) *
                              g->in_w +
                          (size_t)(uint32_t)(ix0 + (int32_t)(kx0 * dw))) * C + c0;
                if (full3 && ky1 - ky0 == 3 && kx1 - kx0 == 3) {
#if ACCEL__MAC_DSP
                    if (U) {
                        ACCEL__MAC_DWROW("uxtab16", xw, 0, 8, 16);
                        ACCEL__MAC_DWROW("uxtab16", xw + rs, 24, 32, 40);
                        ACCEL__MAC_DWROW("uxtab16", xw + 2 * rs, 48, 56, 64);
                    } else {
                        ACCEL__MAC_DWROW("sxtab16", xw, 0, 8, 16);
                        ACCEL__MAC_DWROW("sxtab16", xw + rs, 24, 32, 40);
                        ACCEL__MAC_DWROW("sxtab16", xw + 2 * rs, 48, 56, 64);
                    }
#else
                    for (wr = wq, xe = xw + 3u * rs; xw != xe; xw += rs, wr += 6) {
                        ACCEL__MAC_DWTAPF(xw, wr);
                        ACCEL__MAC_DWTAPF(xw + dwc, wr + 2);
                        ACCEL__MAC_DWTAPF(xw + 2 * dwc, wr + 4);
                    }
                    bf = bq + 4; /* the bias with the input offset's term */
#endif
                } else {
                    for (ky = ky0; ky < ky1; ky++, xw += rs) {
                        wr = wq + ((size_t)ky * g->k_w + kx0) * 2u;
                        for (xr = xw, xe = xw + (size_t)(kx1 - kx0) * dwc; xr != xe; xr += dwc, wr += 2)
                            ACCEL__MAC_DWTAP(xr, wr);
                    }
                }
                acc[np * 4u] = (uint32_t)a0 + bf[0];
                acc[np * 4u + 1u] = (uint32_t)a1 + bf[1];
                acc[np * 4u + 2u] = (uint32_t)a2 + bf[2];
                acc[np * 4u + 3u] = (uint32_t)a3 + bf[3];
                if (++np == ACCEL__MAC_DWP || ox + 1u == g->out_w) {
                    ob = (((size_t)b * g->out_h + oy) * g->out_w + ox + 1u - np) * C;
                    accel__mac_rq_grid(acc, 4, 4, np, r, c0, o + ob, C);
                    np = 0;
                }
            }
        }
}

/* Channels [0, in_c & ~3) of a depthwise conv2d with depth multiplier 1 and at most
 * ACCEL__MAC_DWT taps; returns how many it computed. */
static size_t accel__mac_mcu_dw(const accel_mac_conv *g, const accel_mac_quant *q,
                                const int8_t *x, const int8_t *w, const int32_t *bias, uint8_t *o)
{
    uint32_t wq[2u * ACCEL__MAC_DWT], bq[8];
    size_t C = g->in_c, c0, t, j, nt = (size_t)g->k_h * g->k_w;
    int u = q->dtype == ACCEL_MAC_UINT8;
    int32_t wo = q->filter_offset, v[4];
    accel__mac_rqc r;
    if (nt > ACCEL__MAC_DWT || g->depth_multiplier > 1) return 0;
    accel__mac_rq_init(&r, q, g->out_c);
    for (c0 = 0; c0 + 4u <= C; c0 += 4u) {
        for (t = 0; t < nt; t++) { /* int16 pairs: channels 0,2 then 1,3 (DSP); 0,1 then 2,3 */
            for (j = 0; j < 4u; j++) v[j] = accel__mac_ld8(w + t * C + c0 + j, u) + wo;
#if ACCEL__MAC_DSP
            wq[2u * t] = ((uint32_t)v[0] & 0xFFFFu) | ((uint32_t)v[2] << 16);
            wq[2u * t + 1u] = ((uint32_t)v[1] & 0xFFFFu) | ((uint32_t)v[3] << 16);
#else
            {
                int16_t *d = (int16_t *)(void *)(wq + 2u * t);
                for (j = 0; j < 4u; j++) d[j] = (int16_t)v[j];
            }
#endif
        }
        /* bq[4 + j]: plus input_offset * (the window's filter sum), for whole windows */
        for (j = 0; j < 4u; j++) bq[j] = bq[4u + j] = bias ? (uint32_t)bias[c0 + j] : 0u;
        for (t = 0; t < nt; t++)
            for (j = 0; j < 4u; j++)
                bq[4u + j] += (uint32_t)q->input_offset * (uint32_t)(accel__mac_ld8(w + t * C + c0 + j, u) + wo);
        if (u) accel__mac_dw4_t(g, x, c0, wq, bq, q->input_offset, &r, o + c0, 1);
        else accel__mac_dw4_t(g, x, c0, wq, bq, q->input_offset, &r, o + c0, 0);
    }
    return c0;
}

/* ---- @mac.conv: microcontroller pools: per output pixel, 4 channels a pass with the window's values in
 * registers (DSP: a word of 4 bytes, the maximum by SSUB8/USUB8 + SEL, the sums in two
 * int16-lane words by SXTAB16/UXTAB16 while the window has at most 255 taps); the last
 * in_c % 4 channels one at a time. ---- */
#if ACCEL__MAC_DSP
/* the bytewise maximum of a and b, signed (U 0) or unsigned (U 1) */
ACCEL__MAC_AI uint32_t accel__mac_max4(uint32_t a, uint32_t b, const int U)
{
    uint32_t t, r;
    if (U) __asm__("usub8 %0, %2, %3\n\tsel %1, %2, %3" : "=&r"(t), "=r"(r) : "r"(a), "r"(b) : "cc");
    else __asm__("ssub8 %0, %2, %3\n\tsel %1, %2, %3" : "=&r"(t), "=r"(r) : "r"(a), "r"(b) : "cc");
    (void)t;
    return r;
}
#endif

/* The rounded average of TFLite (int8: half away from zero, uint8: (v + n/2) / n) or the
 * maximum v, clamped. */
ACCEL__MAC_AI uint8_t accel__mac_pool_out(int32_t v, int32_t n, int avg, int u, int32_t lo,
                                          int32_t hi)
{
    if (avg) v = u || v > 0 ? (v + n / 2) / n : (v - n / 2) / n;
    v = v < lo ? lo : v > hi ? hi : v;
    return (uint8_t)(v & 0xFF);
}

ACCEL__MAC_AI void accel__mac_pool_t(const accel_mac_conv *g, const int8_t *x, uint8_t *o,
                                     int32_t lo, int32_t hi, int avg, const int U)
{
    uint32_t b, oy, ox, ky0, ky1, kx0, kx1;
    size_t C = g->in_c, c4 = C & ~(size_t)3, c, rs = (size_t)g->in_w * C, wr;
    int32_t iy0, ix0, n, a0, a1, a2, a3, v;
    const int8_t *xw, *xr, *re, *p, *we;
#if ACCEL__MAC_DSP
    uint32_t m, s02, s13, t;
#endif
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_range(iy0, 1u, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox++, o += C) {
                ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                accel__mac_range(ix0, 1u, g->k_w, g->in_w, &kx0, &kx1);
                n = (int32_t)((ky1 - ky0) * (kx1 - kx0));
                xw = x + (((size_t)b * g->in_h + (size_t)(uint32_t)(iy0 + (int32_t)ky0)) * g->in_w +
                          (size_t)(uint32_t)(ix0 + (int32_t)kx0)) * C;
                we = xw + (size_t)(ky1 - ky0) * rs; /* past the window's last row */
                wr = (size_t)(kx1 - kx0) * C;       /* bytes of a window row */
                for (c = 0; c < C; c += c < c4 ? 4u : 1u) {
#if ACCEL__MAC_DSP
                    if (c < c4 && (!avg || n <= 255)) {
                        m = accel__mac_ld32(xw + c);
                        s02 = s13 = 0;
                        for (xr = xw + c; xr != we + c; xr += rs)
                            for (p = xr, re = xr + wr; p != re; p += C) {
                                t = accel__mac_ld32(p);
                                if (avg) {
                                    s02 = accel__mac_xta(s02, t, U, 0);
                                    s13 = accel__mac_xta(s13, t, U, 1);
                                } else {
                                    m = accel__mac_max4(m, t, U);
                                }
                            }
                        if (avg) { /* int16 lanes (uint8: unsigned) */
                            a0 = U ? (int32_t)(s02 & 0xFFFFu) : (int32_t)(int16_t)(s02 & 0xFFFFu);
                            a2 = U ? (int32_t)(s02 >> 16) : (int32_t)(int16_t)(s02 >> 16);
                            a1 = U ? (int32_t)(s13 & 0xFFFFu) : (int32_t)(int16_t)(s13 & 0xFFFFu);
                            a3 = U ? (int32_t)(s13 >> 16) : (int32_t)(int16_t)(s13 >> 16);
                        } else {
                            a0 = accel__mac_ld8((const int8_t *)(const void *)&m, U);
                            a1 = accel__mac_ld8((const int8_t *)(const void *)&m + 1, U);
                            a2 = accel__mac_ld8((const int8_t *)(const void *)&m + 2, U);
                            a3 = accel__mac_ld8((const int8_t *)(const void *)&m + 3, U);
                        }
                        o[c] = accel__mac_pool_out(a0, n, avg, U, lo, hi);
                        o[c + 1] = accel__mac_pool_out(a1, n, avg, U, lo, hi);
                        o[c + 2] = accel__mac_pool_out(a2, n, avg, U, lo, hi);
                        o[c + 3] = accel__mac_pool_out(a3, n, avg, U, lo, hi);
                        continue;
                    }
#endif
                    if (c < c4) {
                        a0 = a1 = a2 = a3 = avg ? 0 : -256;
                        for (xr = xw + c; xr != we + c; xr += rs)
                            for (p = xr, re = xr + wr; p != re; p += C) {
                                if (avg) {
                                    a0 += accel__mac_ld8(p, U);
                                    a1 += accel__mac_ld8(p + 1, U);
                                    a2 += accel__mac_ld8(p + 2, U);
                                    a3 += accel__mac_ld8(p + 3, U);
                                } else {
                                    v = accel__mac_ld8(p, U), a0 = v > a0 ? v : a0;
                                    v = accel__mac_ld8(p + 1, U), a1 = v > a1 ? v : a1;
                                    v = accel__mac_ld8(p + 2, U), a2 = v > a2 ? v : a2;
                                    v = accel__mac_ld8(p + 3, U), a3 = v > a3 ? v : a3;
                                }
                            }
                        o[c] = accel__mac_pool_out(a0, n, avg, U, lo, hi);
                        o[c + 1] = accel__mac_pool_out(a1, n, avg, U, lo, hi);
                        o[c + 2] = accel__mac_pool_out(a2, n, avg, U, lo, hi);
                        o[c + 3] = accel__mac_pool_out(a3, n, avg, U, lo, hi);
                        continue;
                    }
                    a0 = avg ? 0 : -256;
                    for (xr = xw + c; xr != we + c; xr += rs)
                        for (p = xr, re = xr + wr; p != re; p += C) {
                            v = accel__mac_ld8(p, U);
                            a0 = avg ? a0 + v : v > a0 ? v : a0;
                        }
                    o[c] = accel__mac_pool_out(a0, n, avg, U, lo, hi);
                }
            }
        }
}

static void accel__mac_mcu_pool(const accel_mac_conv *g, int u, int32_t lo, int32_t hi,
                                const int8_t *x, uint8_t *o, int avg)
{
    if (u) accel__mac_pool_t(g, x, o, lo, hi, avg, 1);
    else accel__mac_pool_t(g, x, o, lo, hi, avg, 0);
}
#endif /* ACCEL_MAC_MCU: depthwise, pools */
#endif /* ACCEL__MAC_BLK */

/* The scratch of accel_mac_conv2d_with_scratch (fs taps per filter, ocg output channels per
 * group): 4-byte alignment, then the patch; on x86 SIMD builds, the packed filter block,
 * patches and constants of the vector kernels (0: too long a filter for them). */
static size_t accel__mac_conv_scratch(size_t fs, size_t ocg)
{
#if ACCEL__MAC_BLK
    (void)ocg;
    return fs <= ((size_t)-1 - 3u) / ((size_t)2 * ACCEL__MAC_PIX) ? (size_t)2 * ACCEL__MAC_PIX * fs + 3u : 0u;
#elif ACCEL_MAC_SIMD == 2
    return fs <= ACCEL__MAC_ZC_K ? accel__mac_z_conv_scratch(fs, ocg) : 0u;
#elif ACCEL_MAC_SIMD == 1
    return fs <= ACCEL__MAC_YC_K ? accel__mac_y_conv_scratch(fs, ocg) : 0u;
#else
    (void)fs;
    (void)ocg;
    return 0;
#endif
}

ACCELDEF accel_status accel_mac_conv2d(const accel_mac_conv *g, const accel_mac_quant *q,
                                       const void *input, size_t input_len, const void *filter,
                                       size_t filter_len, const int32_t *bias, size_t bias_len,
                                       void *output, size_t output_len)
{
    return accel_mac_conv2d_with_scratch(g, q, input, input_len, filter, filter_len, bias,
                                         bias_len, output, output_len, NULL, 0);
}

ACCELDEF accel_status accel_mac_conv2d_scratch_size(const accel_mac_conv *g, size_t *size)
{
    size_t in_n, out_n, fs = 1;
    uint32_t groups;
    accel_status st;
    if (!size) return ACCEL_E_NULL;
    *size = 0;
    st = accel__mac_check_geom(g, &in_n, &out_n);
    if (st != ACCEL_OK) return st;
    groups = accel__mac_one(g->groups);
    if (g->in_c % groups != 0 || g->out_c % groups != 0 || g->depth_multiplier > 1)
        return ACCEL_E_MAC_GROUPS;
    if (!accel__mac_mul(&fs, g->k_h) || !accel__mac_mul(&fs, g->k_w) ||
        !accel__mac_mul(&fs, g->in_c / groups))
        return ACCEL_E_OVERFLOW;
    *size = accel__mac_conv_scratch(fs, (size_t)(g->out_c / groups));
    return ACCEL_OK;
}

ACCELDEF accel_status accel_mac_conv2d_with_scratch(const accel_mac_conv *g,
                                                    const accel_mac_quant *q, const void *input,
                                                    size_t input_len, const void *filter,
                                                    size_t filter_len, const int32_t *bias,
                                                    size_t bias_len, void *output,
                                                    size_t output_len, void *scratch,
                                                    size_t scratch_len)
{
    const int8_t *x = (const int8_t *)input, *w = (const int8_t *)filter, *xp;
    uint8_t *o = (uint8_t *)output;
    size_t in_n, out_n, need, fs, oc, r, nr, xi, ih, iw, ic, oh, ow, oc_n, kw, cgs, ocgs;
    uint32_t groups, cg, ocg, dh, dw, b, oy, ox, ky, kx, ky0, ky1, kx0, kx1, gi;
    uint32_t acc[ACCEL__MAC_BLOCK];
    int32_t fx, xo, wo, iy0, ix0;
    accel_status st;
    if (!input || !filter || !output) return ACCEL_E_NULL;
    st = accel__mac_check_geom(g, &in_n, &out_n);
    if (st != ACCEL_OK) return st;
    st = accel__mac_check_q(q, g->out_c, bias, bias_len);
    if (st != ACCEL_OK) return st;
    groups = accel__mac_one(g->groups);
    if (g->in_c % groups != 0 || g->out_c % groups != 0 || g->depth_multiplier > 1)
        return ACCEL_E_MAC_GROUPS;
    cg = g->in_c / groups;
    ocg = g->out_c / groups;
    fs = 1;
    if (!accel__mac_mul(&fs, g->k_h) || !accel__mac_mul(&fs, g->k_w) || !accel__mac_mul(&fs, cg))
        return ACCEL_E_OVERFLOW;
    need = fs;
    if (!accel__mac_mul(&need, g->out_c)) return ACCEL_E_OVERFLOW;
    if (input_len < in_n || filter_len < need) return ACCEL_E_TRUNCATED;
    if (output_len < out_n) return ACCEL_E_BUFFER_TOO_SMALL;
    cgs = (size_t)cg; /* the element counts fit size_t, so every factor does */
    ocgs = (size_t)ocg;
#if ACCEL__MAC_BLK
    need = accel__mac_conv_scratch(fs, ocgs);
    if (scratch && need != 0 && scratch_len >= need && fs <= ACCEL__MAC_CHUNK) {
        accel__mac_mcu_conv(g, q, x, w, bias, o, fs, cgs, ocgs,
                            (int16_t *)(void *)((uint8_t *)scratch + ((4u - ((uintptr_t)scratch & 3u)) & 3u)));
        return ACCEL_OK;
    }
    /* no scratch: the slower kernel that reads the input in place, never a patch on the
       stack (a 64-bit build without SIMD runs here too, on a small thread stack) */
    accel__mac_mcu_conv_direct(g, q, x, w, bias, o, fs, cgs, ocgs);
    return ACCEL_OK;
#else
    (void)scratch;
    (void)scratch_len;
#endif
    ih = (size_t)g->in_h; /* (after the blocked kernels, which always return) */
    iw = (size_t)g->in_w;
    ic = (size_t)g->in_c;
    oh = (size_t)g->out_h;
    ow = (size_t)g->out_w;
    oc_n = (size_t)g->out_c;
    kw = (size_t)g->k_w;
#if ACCEL_MAC_SIMD == 2
    need = accel__mac_conv_scratch(fs, ocgs);
    if (scratch && scratch_len >= need && fs <= ACCEL__MAC_ZC_K &&
        q->rounding == ACCEL_MAC_ROUND_DOUBLE) {
        accel__mac_z_conv(g, q, x, w, bias, o, fs, cgs, ocgs,
                          (uint8_t *)scratch + ((64u - ((uintptr_t)scratch & 63u)) & 63u));
        return ACCEL_OK;
    }
#endif
#if ACCEL_MAC_SIMD == 1
    need = accel__mac_conv_scratch(fs, ocgs);
    if (scratch && scratch_len >= need && fs <= ACCEL__MAC_YC_K) {
        accel__mac_y_conv(g, q, x, w, bias, o, fs, cgs, ocgs,
                          (uint8_t *)scratch + ((32u - ((uintptr_t)scratch & 31u)) & 31u));
        return ACCEL_OK;
    }
#endif
#if ACCEL_MAC_SIMD == 2
    if (groups == 1 && accel__mac_one(g->dilation_w) == 1u && ((size_t)g->k_w * cgs) % 4u == 0 &&
        fs <= ((size_t)1 << 26) && q->rounding == ACCEL_MAC_ROUND_DOUBLE) {
        accel__mac_z_conv_ns(g, q, x, w, bias, o, fs); /* reads the input and filter in place */
        return ACCEL_OK;
    }
#endif
#if ACCEL_MAC_SIMD == 1
    if (groups == 1 && accel__mac_one(g->dilation_w) == 1u && ((size_t)g->k_w * cgs) % 4u == 0 &&
        fs <= ((size_t)1 << 26)) {
        accel__mac_y_conv_ns(g, q, x, w, bias, o, fs); /* reads the input and filter in place */
        return ACCEL_OK;
    }
#endif
    /* without (enough) scratch: the kernels below, whose stack frames are small */
#if ACCEL_MAC_FAST
    if (groups == 1 && fs <= ACCEL__MAC_PATCH) {
        accel__mac_conv_patch(g, q, x, w, bias, o, fs);
        return ACCEL_OK;
    }
#endif
    dh = accel__mac_one(g->dilation_h);
    dw = accel__mac_one(g->dilation_w);
    fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0;
    xo = q->input_offset - fx;
    wo = q->filter_offset - fx;
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_range(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox++) {
                ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                accel__mac_range(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
                for (gi = 0; gi < groups; gi++)
                    for (oc = (size_t)gi * ocgs; oc < (size_t)(gi + 1u) * ocgs; oc += nr) {
                        nr = (size_t)(gi + 1u) * ocgs - oc;
                        if (nr > ACCEL__MAC_BLOCK) nr = ACCEL__MAC_BLOCK;
                        for (r = 0; r < nr; r++) acc[r] = bias ? (uint32_t)bias[oc + r] : 0u;
                        for (ky = ky0; ky < ky1; ky++) {
                            xi = ((size_t)b * ih + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) * iw;
                            if (dw == 1 && groups == 1) {
                                /* the taps of one filter row are contiguous in both */
                                xp = x + (xi + (size_t)(uint32_t)(ix0 + (int32_t)kx0)) * ic;
                                accel__mac_dot_rows(xp, w + oc * fs + ((size_t)ky * kw + kx0) * cgs,
                                                    fs, nr, (size_t)(kx1 - kx0) * cgs, fx, xo, wo,
                                                    acc);
                            } else {
                                for (kx = kx0; kx < kx1; kx++) {
                                    xp = x + (xi + (size_t)(uint32_t)(ix0 + (int32_t)(kx * dw))) * ic +
                                         (size_t)gi * cgs;
                                    accel__mac_dot_rows(xp, w + oc * fs + ((size_t)ky * kw + kx) * cgs,
                                                        fs, nr, cgs, fx, xo, wo, acc);
                                }
                            }
                        }
                        for (r = 0; r < nr; r++)
                            o[(((size_t)b * oh + (size_t)oy) * ow + (size_t)ox) * oc_n + oc + r] =
                                accel__mac_out(acc[r], q, oc + r);
                    }
            }
        }
    return ACCEL_OK;
}

/* Channels per pass of the channel-vectorized kernels (a small stack array; on x86 SIMD builds,
 * where they only do what the vector kernels leave, 16: fewer vectors spilled in a frame that
 * adds to theirs). */
#if ACCEL_MAC_FAST && (ACCEL_MAC_SIMD == 1 || ACCEL_MAC_SIMD == 2)
#define ACCEL__MAC_CH 16u
#elif ACCEL_MAC_FAST
#define ACCEL__MAC_CH 32u
#else
#define ACCEL__MAC_CH 8u
#endif

ACCELDEF accel_status accel_mac_depthwise_conv2d(const accel_mac_conv *g,
                                                 const accel_mac_quant *q, const void *input,
                                                 size_t input_len, const void *filter,
                                                 size_t filter_len, const int32_t *bias,
                                                 size_t bias_len, void *output,
                                                 size_t output_len)
{
    const int8_t *x = (const int8_t *)input, *w = (const int8_t *)filter, *xp, *wp;
    uint8_t *o = (uint8_t *)output;
    size_t in_n, out_n, need, c0, nc, j, ob, ih, iw, ic, oh, ow, oc_n, kw;
    size_t cs = 0; /* channels [0, cs) done by a SIMD pass */
    uint32_t dm, dh, dw, b, oy, ox, ky, kx, ky0, ky1, kx0, kx1;
    uint32_t acc[ACCEL__MAC_CH];
    int32_t fx, xo, wo, iy0, ix0;
    accel_status st;
    if (!input || !filter || !output) return ACCEL_E_NULL;
    st = accel__mac_check_geom(g, &in_n, &out_n);
    if (st != ACCEL_OK) return st;
    st = accel__mac_check_q(q, g->out_c, bias, bias_len);
    if (st != ACCEL_OK) return st;
    dm = accel__mac_one(g->depth_multiplier);
    if (g->out_c != g->in_c * dm || g->groups > 1) return ACCEL_E_MAC_GROUPS;
    need = 1;
    if (!accel__mac_mul(&need, g->k_h) || !accel__mac_mul(&need, g->k_w) ||
        !accel__mac_mul(&need, g->out_c))
        return ACCEL_E_OVERFLOW;
    if (input_len < in_n || filter_len < need) return ACCEL_E_TRUNCATED;
    if (output_len < out_n) return ACCEL_E_BUFFER_TOO_SMALL;
    ih = (size_t)g->in_h; /* the element counts fit size_t, so every factor does */
    iw = (size_t)g->in_w;
    ic = (size_t)g->in_c;
    oh = (size_t)g->out_h;
    ow = (size_t)g->out_w;
    oc_n = (size_t)g->out_c;
    kw = (size_t)g->k_w;
    dh = accel__mac_one(g->dilation_h);
    dw = accel__mac_one(g->dilation_w);
    fx = q->dtype == ACCEL_MAC_UINT8 ? -128 : 0;
    xo = q->input_offset - fx;
    wo = q->filter_offset - fx;
#if ACCEL_MAC_SIMD == 2
    if (dm == 1 && need / oc_n <= ACCEL__MAC_ZD_T && q->rounding == ACCEL_MAC_ROUND_DOUBLE) {
        accel__mac_z_dw(g, q, x, w, bias, o);
        return ACCEL_OK;
    }
#endif
#if ACCEL_MAC_SIMD == 1
    if (dm == 1 && need / oc_n <= ACCEL__MAC_YD_T) {
        cs = accel__mac_y_dw(g, q, x, w, bias, o);
        if (cs == oc_n) return ACCEL_OK;
    }
#endif
#if ACCEL_MAC_MCU
    cs = accel__mac_mcu_dw(g, q, x, w, bias, o);
    if (cs == oc_n) return ACCEL_OK;
#endif
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_range(iy0, dh, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox++) {
                ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                accel__mac_range(ix0, dw, g->k_w, g->in_w, &kx0, &kx1);
                ob = (((size_t)b * oh + (size_t)oy) * ow + (size_t)ox) * oc_n;
                for (c0 = cs; c0 < oc_n; c0 += nc) {
                    nc = oc_n - c0 < ACCEL__MAC_CH ? oc_n - c0 : ACCEL__MAC_CH;
                    /* cppcheck-suppress knownConditionTrueFalse ; nc = min(oc_n - c0, CH) with c0 < oc_n is at least 1 */
                    for (j = 0; j < nc; j++) acc[j] = bias ? (uint32_t)bias[c0 + j] : 0u;
                    for (ky = ky0; ky < ky1; ky++)
                        for (kx = kx0; kx < kx1; kx++) {
                            xp = x + (((size_t)b * ih + (size_t)(uint32_t)(iy0 + (int32_t)(ky * dh))) * iw +
                                      (size_t)(uint32_t)(ix0 + (int32_t)(kx * dw))) * ic;
                            wp = w + ((size_t)ky * kw + kx) * oc_n + c0;
                            if (dm == 1 && nc == ACCEL__MAC_CH) {
                                /* a constant trip count: the loop becomes a few vector ops */
                                xp += c0;
                                for (j = 0; j < ACCEL__MAC_CH; j++)
                                    acc[j] += (uint32_t)((int32_t)(int16_t)((xp[j] ^ fx) + xo) *
                                                         (int16_t)((wp[j] ^ fx) + wo));
                            } else if (dm == 1) {
                                xp += c0;
                                /* cppcheck-suppress knownConditionTrueFalse ; nc = min(oc_n - c0, CH) with c0 < oc_n is at least 1 */
                                for (j = 0; j < nc; j++)
                                    acc[j] += (uint32_t)((int32_t)(int16_t)((xp[j] ^ fx) + xo) *
                                                         (int16_t)((wp[j] ^ fx) + wo));
                            } else {
                                /* cppcheck-suppress knownConditionTrueFalse ; nc = min(oc_n - c0, CH) with c0 < oc_n is at least 1 */
                                for (j = 0; j < nc; j++)
                                    acc[j] += (uint32_t)((int32_t)(int16_t)((xp[(c0 + j) / dm] ^ fx) + xo) *
                                                         (int16_t)((wp[j] ^ fx) + wo));
                            }
                        }
#if ACCEL_MAC_FAST
                    accel__mac_requant_n(acc, nc, q, c0, o + ob + c0);
#else
                    /* cppcheck-suppress knownConditionTrueFalse ; nc = min(oc_n - c0, CH) with c0 < oc_n is at least 1 */
                    for (j = 0; j < nc; j++) o[ob + c0 + j] = accel__mac_out(acc[j], q, c0 + j);
#endif
                }
            }
        }
    return ACCEL_OK;
}

static accel_status accel__mac_pool(const accel_mac_conv *g, accel_mac_dtype dt, int32_t act_min,
                                    int32_t act_max, const void *input, size_t input_len,
                                    void *output, size_t output_len, int avg)
{
    const uint8_t *x = (const uint8_t *)input, *xp;
    uint8_t *o = (uint8_t *)output;
    size_t in_n, out_n, c0, nc, j, ob, ih, iw, ic, oh, ow, oc_n;
    uint32_t b, oy, ox, ky, kx, ky0, ky1, kx0, kx1, fx;
    int32_t acc[ACCEL__MAC_CH], v, cnt, iy0, ix0;
    accel_status st;
    if (!input || !output) return ACCEL_E_NULL;
    st = accel__mac_check_geom(g, &in_n, &out_n);
    if (st != ACCEL_OK) return st;
    st = accel__mac_check_act(dt, act_min, act_max);
    if (st != ACCEL_OK) return st;
    if (g->out_c != g->in_c || g->groups > 1 || g->depth_multiplier > 1 || g->dilation_h > 1 ||
        g->dilation_w > 1)
        return ACCEL_E_MAC_GROUPS;
    if ((uint64_t)g->k_h * g->k_w > 0x7FFFFFu) return ACCEL_E_MAC_SHAPE; /* sum fits int32 */
    if (input_len < in_n) return ACCEL_E_TRUNCATED;
    if (output_len < out_n) return ACCEL_E_BUFFER_TOO_SMALL;
    /* every window must hold an in-image tap; checked before anything is written */
    for (oy = 0; oy < g->out_h; oy++) {
        accel__mac_range((int32_t)(oy * g->stride_h) - (int32_t)g->pad_top, 1u, g->k_h, g->in_h,
                         &ky0, &ky1);
        if (ky0 >= ky1) return ACCEL_E_MAC_EMPTY_WINDOW;
    }
    for (ox = 0; ox < g->out_w; ox++) {
        accel__mac_range((int32_t)(ox * g->stride_w) - (int32_t)g->pad_left, 1u, g->k_w, g->in_w,
                         &kx0, &kx1);
        if (kx0 >= kx1) return ACCEL_E_MAC_EMPTY_WINDOW;
    }
    ih = (size_t)g->in_h; /* the element counts fit size_t, so every factor does */
    iw = (size_t)g->in_w;
    ic = (size_t)g->in_c;
    oh = (size_t)g->out_h;
    ow = (size_t)g->out_w;
    oc_n = (size_t)g->out_c;
#if ACCEL_MAC_MCU
    accel__mac_mcu_pool(g, dt == ACCEL_MAC_UINT8, act_min, act_max, (const int8_t *)input, o, avg);
    return ACCEL_OK;
#endif
    fx = dt == ACCEL_MAC_UINT8 ? 0u : 0x80u; /* compare and add in the int8 value domain */
    for (b = 0; b < g->batches; b++)
        for (oy = 0; oy < g->out_h; oy++) {
            iy0 = (int32_t)(oy * g->stride_h) - (int32_t)g->pad_top;
            accel__mac_range(iy0, 1u, g->k_h, g->in_h, &ky0, &ky1);
            for (ox = 0; ox < g->out_w; ox++) {
                ix0 = (int32_t)(ox * g->stride_w) - (int32_t)g->pad_left;
                accel__mac_range(ix0, 1u, g->k_w, g->in_w, &kx0, &kx1);
                cnt = (int32_t)((ky1 - ky0) * (kx1 - kx0));
                ob = (((size_t)b * oh + (size_t)oy) * ow + (size_t)ox) * oc_n;
                for (c0 = 0; c0 < oc_n; c0 += nc) {
                    nc = oc_n - c0 < ACCEL__MAC_CH ? oc_n - c0 : ACCEL__MAC_CH;
                    /* cppcheck-suppress knownConditionTrueFalse ; nc = min(c - c0, CH) with c0 < c is at least 1 */
                    for (j = 0; j < nc; j++) acc[j] = avg ? 0 : -256;
                    for (ky = ky0; ky < ky1; ky++)
                        for (kx = kx0; kx < kx1; kx++) {
                            xp = x + (((size_t)b * ih + (size_t)(uint32_t)(iy0 + (int32_t)ky)) * iw +
                                      (size_t)(uint32_t)(ix0 + (int32_t)kx)) * ic +
                                 c0;
                            /* uint8 as is; int8 byte ^ 0x80 is value + 128 */
                            if (avg)
                                /* cppcheck-suppress knownConditionTrueFalse ; nc = min(c - c0, CH) with c0 < c is at least 1 */
                                for (j = 0; j < nc; j++) acc[j] += (int32_t)(xp[j] ^ fx);
                            else
                                /* cppcheck-suppress knownConditionTrueFalse ; nc = min(c - c0, CH) with c0 < c is at least 1 */
                                for (j = 0; j < nc; j++) {
                                    v = (int32_t)(xp[j] ^ fx);
                                    acc[j] = v > acc[j] ? v : acc[j];
                                }
                        }
                    /* cppcheck-suppress knownConditionTrueFalse ; nc = min(c - c0, CH) with c0 < c is at least 1 */
                    for (j = 0; j < nc; j++) {
                        v = acc[j];
                        if (fx) v -= avg ? 128 * cnt : 128;
                        if (avg) {
                            if (dt == ACCEL_MAC_UINT8) v = (v + cnt / 2) / cnt;
                            else v = v > 0 ? (v + cnt / 2) / cnt : (v - cnt / 2) / cnt;
                        }
                        v = v < act_min ? act_min : v > act_max ? act_max : v;
                        o[ob + c0 + j] = (uint8_t)(v & 0xFF);
                    }
                }
            }
        }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_mac_max_pool2d(const accel_mac_conv *g, accel_mac_dtype dt,
                                           int32_t act_min, int32_t act_max, const void *input,
                                           size_t input_len, void *output, size_t output_len)
{
    return accel__mac_pool(g, dt, act_min, act_max, input, input_len, output, output_len, 0);
}

ACCELDEF accel_status accel_mac_average_pool2d(const accel_mac_conv *g, accel_mac_dtype dt,
                                               int32_t act_min, int32_t act_max,
                                               const void *input, size_t input_len, void *output,
                                               size_t output_len)
{
    return accel__mac_pool(g, dt, act_min, act_max, input, input_len, output, output_len, 1);
}

/* -------------------------------------------------------- @mac.wide: wide products */
ACCELDEF uint32_t accel_mac_wide_depth_limit(uint32_t nbytes, int is_signed)
{
    if (nbytes == 0 || nbytes > 4) return 0;
    /* the largest |plane product|: 255*255 once any plane is unsigned, else 128*128 */
    return (nbytes == 1 && is_signed) ? 131071UL : (uint32_t)ACCEL_MAC_WIDE_MAX_DEPTH;
}

ACCELDEF accel_status accel_mac_wide_scratch_size(uint32_t nbytes, uint32_t m_rows,
                                                  uint32_t n_cols, uint32_t depth, size_t *size)
{
    size_t p = 1, a = 1, bb = 1;
    if (!size) return ACCEL_E_NULL;
    *size = 0;
    if (nbytes == 0 || nbytes > 4) return ACCEL_E_ARG;
    if (!accel__mac_mul(&p, m_rows) || !accel__mac_mul(&a, m_rows) ||
        !accel__mac_mul(&bb, n_cols) || !accel__mac_mul(&p, n_cols) || !accel__mac_mul(&p, 4u) || !accel__mac_mul(&a, depth) ||
        !accel__mac_mul(&a, nbytes) || !accel__mac_mul(&bb, depth) || !accel__mac_mul(&bb, nbytes))
        return ACCEL_E_OVERFLOW;
    if (p + a < p || p + a + bb < p + a) return ACCEL_E_OVERFLOW;
    *size = p + a + bb;
    return ACCEL_OK;
}

/* Source element kinds of the wide products. */
#define ACCEL__MAC_SRC_BYTES 0
#define ACCEL__MAC_SRC_16 1

/* Byte p of element i (little-endian), the signed top byte already XOR 0x80. */
static uint8_t accel__mac_plane_byte(const void *src, int kind, uint32_t nbytes, int is_signed,
                                     size_t i, uint32_t p)
{
    uint8_t v;
    if (kind == ACCEL__MAC_SRC_16)
        v = (uint8_t)((((const uint16_t *)src)[i] >> (8u * p)) & 0xFFu);
    else
        v = ((const uint8_t *)src)[i * nbytes + p];
    return (is_signed && p == nbytes - 1u) ? (uint8_t)(v ^ 0x80u) : v;
}

static accel_status accel__mac_wide(uint32_t nbytes, int is_signed, uint32_t m_rows,
                                    uint32_t n_cols, uint32_t depth, const void *a, size_t a_n,
                                    const void *b, size_t b_n, int kind, int64_t *out,
                                    size_t out_len, void *scratch, size_t scratch_len)
{
    size_t need, mn, mk, nk, i;
    uint32_t p, q;
    int32_t *part;
    uint8_t *pa, *pb;
    uint64_t *acc;
    accel_status st;
    if (!a || !b || !out || !scratch) return ACCEL_E_NULL;
    ACCEL_ASSERT(nbytes >= 1u && nbytes <= 4u); /* wide_matmul checked it; s16/u16 pass 2 */
    if (m_rows == 0 || n_cols == 0 || depth == 0) return ACCEL_E_ZERO_LENGTH;
    if (depth > accel_mac_wide_depth_limit(nbytes, is_signed)) return ACCEL_E_MAC_DEPTH;
    st = accel_mac_wide_scratch_size(nbytes, m_rows, n_cols, depth, &need);
    if (st != ACCEL_OK) return st;
    mn = (size_t)m_rows * (size_t)n_cols; /* no overflow: checked by the scratch size */
    mk = (size_t)m_rows * (size_t)depth;
    nk = (size_t)n_cols * (size_t)depth;
    if (a_n < mk || b_n < nk) return ACCEL_E_TRUNCATED;
    if (out_len < mn) return ACCEL_E_BUFFER_TOO_SMALL;
    if (scratch_len < need) return ACCEL_E_BUFFER_TOO_SMALL;
    if (((uintptr_t)scratch & 3u) != 0) return ACCEL_E_ALIGN;
    part = (int32_t *)scratch;
    pa = (uint8_t *)scratch + mn * 4u;
    pb = pa + mk * nbytes;
    for (p = 0; p < nbytes; p++) {
        for (i = 0; i < mk; i++) pa[p * mk + i] = accel__mac_plane_byte(a, kind, nbytes, is_signed, i, p);
        for (i = 0; i < nk; i++) pb[p * nk + i] = accel__mac_plane_byte(b, kind, nbytes, is_signed, i, p);
    }
    acc = (uint64_t *)(void *)out; /* recombine modulo 2^64, convert at the end */
    for (i = 0; i < mn; i++) acc[i] = 0;
    for (p = 0; p < nbytes; p++)
        for (q = 0; q < nbytes; q++) {
            int32_t ao = (is_signed && p == nbytes - 1u) ? -128 : 0;
            int32_t bo = (is_signed && q == nbytes - 1u) ? -128 : 0;
            st = accel_mac_matmul_s32(ACCEL_MAC_UINT8, m_rows, n_cols, depth, pa + p * mk, mk, ao,
                                      pb + q * nk, nk, bo, part, mn);
            ACCEL_ASSERT(st == ACCEL_OK); /* uint8 planes, offsets 0/-128, exact lengths: checked */
            (void)st;
            for (i = 0; i < mn; i++)
                acc[i] += (uint64_t)(int64_t)part[i] << (8u * (p + q));
        }
    for (i = 0; i < mn; i++) out[i] = accel__mac_u2s64(acc[i]);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_mac_wide_matmul(uint32_t nbytes, int is_signed, uint32_t m_rows,
                                            uint32_t n_cols, uint32_t depth, const uint8_t *a,
                                            size_t a_len, const uint8_t *b, size_t b_len,
                                            int64_t *out, size_t out_len, void *scratch,
                                            size_t scratch_len)
{
    if (nbytes == 0 || nbytes > 4) return ACCEL_E_ARG;
    return accel__mac_wide(nbytes, is_signed, m_rows, n_cols, depth, a, a_len / (size_t)nbytes, b,
                           b_len / (size_t)nbytes, ACCEL__MAC_SRC_BYTES, out, out_len, scratch,
                           scratch_len);
}

ACCELDEF accel_status accel_mac_matmul_s16(uint32_t m_rows, uint32_t n_cols, uint32_t depth,
                                           const int16_t *a, size_t a_len, const int16_t *b,
                                           size_t b_len, int64_t *out, size_t out_len,
                                           void *scratch, size_t scratch_len)
{
    return accel__mac_wide(2u, 1, m_rows, n_cols, depth, a, a_len, b, b_len,
                           ACCEL__MAC_SRC_16, out, out_len, scratch, scratch_len);
}

ACCELDEF accel_status accel_mac_matmul_u16(uint32_t m_rows, uint32_t n_cols, uint32_t depth,
                                           const uint16_t *a, size_t a_len, const uint16_t *b,
                                           size_t b_len, int64_t *out, size_t out_len,
                                           void *scratch, size_t scratch_len)
{
    return accel__mac_wide(2u, 0, m_rows, n_cols, depth, a, a_len, b, b_len,
                           ACCEL__MAC_SRC_16, out, out_len, scratch, scratch_len);
}

/* -------------------------------------------------------- @mac.flip: Edge TPU sign flip */
ACCELDEF accel_status accel_mac_flip_sign(void *data, size_t n, size_t elem_bytes)
{
    uint8_t *p = (uint8_t *)data;
    size_t i;
    if (!data) return ACCEL_E_NULL;
    if (elem_bytes == 0) return ACCEL_E_ZERO_LENGTH;
    if (n % elem_bytes != 0) return ACCEL_E_MAC_SHAPE;
    for (i = elem_bytes - 1u; i < n; i += elem_bytes) p[i] ^= 0x80u;
    return ACCEL_OK;
}
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_MAC */

/* ============================================================================================
 * SECTION: tflite (implementation) @tflite
 * ============================================================================================ */
#ifndef ACCEL_NO_TFLITE
#ifdef __cplusplus
extern "C" {
#endif
/* Private functions: a build that leaves operators out (ACCEL_TFLITE_OPS) leaves their helpers
 * unused, and that is fine. */
#if defined(__GNUC__) || defined(__clang__)
#define ACCEL__TFL_STATIC static __attribute__((unused))
#else
#define ACCEL__TFL_STATIC static
#endif
/* ---------------------------------------------------------------- @tflite.open: validation */
/* Schema field numbers (a union takes two: its type, then its value). */
#define ACCEL__TFL_MODEL_VERSION 0u
#define ACCEL__TFL_MODEL_OPCODES 1u
#define ACCEL__TFL_MODEL_SUBGRAPHS 2u
#define ACCEL__TFL_MODEL_DESCRIPTION 3u
#define ACCEL__TFL_MODEL_BUFFERS 4u
#define ACCEL__TFL_SG_TENSORS 0u
#define ACCEL__TFL_SG_INPUTS 1u
#define ACCEL__TFL_SG_OUTPUTS 2u
#define ACCEL__TFL_SG_OPERATORS 3u
#define ACCEL__TFL_MAX_ENTRIES 65535u /* tensors + operators: the plan keeps lives in 16 bits */

ACCEL__TFL_STATIC size_t accel__tfl_type_size(int type)
{
    switch (type) {
    case ACCEL_TFLITE_FLOAT32: case ACCEL_TFLITE_INT32: return 4;
    case ACCEL_TFLITE_UINT8: case ACCEL_TFLITE_INT8: case ACCEL_TFLITE_BOOL: return 1;
    case ACCEL_TFLITE_INT16: return 2;
    case ACCEL_TFLITE_INT64: return 8;
    default: return 0;
    }
}

ACCEL__TFL_STATIC int32_t accel__tfl_s32(uint32_t u)
{
    return (u & 0x80000000UL) ? -(int32_t)(uint32_t)(~u) - 1 : (int32_t)u;
}

/* Table k of a vector of tables that starts at vec. */
ACCEL__TFL_STATIC accel_status accel__tfl_table(const accel_tflite_model *m, size_t vec, uint32_t k, accel_fb_table *t)
{
    size_t p;
    accel_status st = accel_fb_elem(m->buf, m->len, vec, k, &p);
    if (st == ACCEL_OK) st = accel_fb_table_at(t, m->buf, m->len, p);
    return st;
}

ACCEL__TFL_STATIC accel_status accel__tfl_buffer(const accel_tflite_model *m, uint32_t index, accel_fb_view *data)
{
    accel_fb_table b;
    uint64_t off, size;
    accel_status st = accel__tfl_table(m, m->buffers_, index, &b);
    if (st == ACCEL_OK) st = accel_fb_bytes(&b, 0, data);
    if (st == ACCEL_OK) st = accel_fb_scalar(&b, 1, 8, 0, &off);
    if (st == ACCEL_OK) st = accel_fb_scalar(&b, 2, 8, 0, &size);
    if (st != ACCEL_OK) return st;
    if (off > 1u) { /* data stored after the flatbuffer (models over 2 GB), offset from its start */
        if (data->p || off > (uint64_t)m->len || size > (uint64_t)m->len - off) return ACCEL_E_TFLITE_BUFFER;
        data->p = m->buf + (size_t)off;
        data->len = (size_t)size;
    }
    if (data->len == 0) data->p = NULL;
    return ACCEL_OK;
}

ACCEL__TFL_STATIC int accel__tfl_zp_ok(int type, int64_t zp)
{
    switch (type) {
    case ACCEL_TFLITE_INT8: return zp >= -128 && zp <= 127;
    case ACCEL_TFLITE_UINT8: return zp >= 0 && zp <= 255;
    case ACCEL_TFLITE_INT16: return zp >= -32768 && zp <= 32767;
    default: return zp >= -2147483647L - 1 && zp <= 2147483647L;
    }
}

ACCEL__TFL_STATIC accel_status accel__tfl_quant(const accel_tflite_model *m, const accel_fb_table *tt, accel_tflite_tensor *out)
{
    accel_fb_table q;
    int present;
    size_t sp, zp;
    uint32_t ns, nz, k;
    int32_t qd;
    accel_status st = accel_fb_subtable(tt, 4, &q, &present);
    (void)m;
    if (st != ACCEL_OK || !present) return st;
    st = accel_fb_vector(&q, 2, 4, &sp, &ns);
    if (st == ACCEL_OK) st = accel_fb_vector(&q, 3, 8, &zp, &nz);
    if (st == ACCEL_OK) st = accel_fb_i32(&q, 6, 0, &qd);
    if (st != ACCEL_OK) return st;
    if (ns == 0) return ACCEL_OK; /* min/max only, or nothing: not quantized */
    if (nz != ns) return ACCEL_E_TFLITE_QUANT;
    for (k = 0; k < ns; k++) {
        uint32_t bits = accel_load_u32le(q.buf + sp + 4u * (size_t)k);
        int64_t z = (int64_t)accel_load_u64le(q.buf + zp + 8u * (size_t)k);
        /* a scale is a finite float >= 0 (sign clear, exponent not all ones) */
        if ((bits & 0x80000000UL) || (bits & 0x7F800000UL) == 0x7F800000UL) return ACCEL_E_TFLITE_QUANT;
        if (!accel__tfl_zp_ok(out->type, z)) return ACCEL_E_TFLITE_QUANT;
    }
    /* the axis is checked where an operator uses per-channel values (a bias keeps its filter's) */
    if (qd < 0) return ACCEL_E_TFLITE_QUANT;
    out->n_scales = ns;
    out->scale_bits = accel_load_u32le(q.buf + sp);
    out->zero_point = (int32_t)(int64_t)accel_load_u64le(q.buf + zp);
    out->quantized_dimension = qd;
    out->scales_ = sp;
    out->zero_points_ = zp;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_tensor_info(const accel_tflite_model *m, uint32_t index,
                                               accel_tflite_tensor *out)
{
    accel_fb_table t;
    size_t sp;
    uint32_t n, k, buffer;
    uint64_t v, elems = 1;
    size_t es;
    accel_fb_view data;
    accel_status st;
    if (!m || !out) return ACCEL_E_NULL;
    if (index >= m->n_tensors) return ACCEL_E_TFLITE_TENSOR_INDEX;
    ACCEL_MEMSET(out, 0, sizeof *out);
    st = accel__tfl_table(m, m->tensors_, index, &t);
    if (st == ACCEL_OK) st = accel_fb_vector(&t, 0, 4, &sp, &n);
    if (st == ACCEL_OK) st = accel_fb_scalar(&t, 1, 1, 0, &v);
    if (st != ACCEL_OK) return st;
    out->type = (int)v;
    es = accel__tfl_type_size(out->type);
    if (es == 0) return ACCEL_E_TFLITE_TYPE;
    if (n > ACCEL_TFLITE_MAX_DIMS) return ACCEL_E_TFLITE_SHAPE;
    out->ndims = n;
    for (k = 0; k < n; k++) {
        int32_t d = accel__tfl_s32(accel_load_u32le(t.buf + sp + 4u * (size_t)k));
        if (d < 0) return ACCEL_E_TFLITE_SHAPE;
        out->dims[k] = d;
        elems *= (uint64_t)d;
        if (elems > 0xFFFFFFFFUL / es || elems > (uint64_t)SIZE_MAX / es) return ACCEL_E_TFLITE_SHAPE;
    }
    out->elements = (size_t)elems;
    out->bytes = (size_t)elems * es;
    st = accel_fb_string(&t, 3, &out->name);
    if (st == ACCEL_OK) st = accel_fb_scalar(&t, 5, 1, 0, &v);
    if (st != ACCEL_OK) return st;
    out->is_variable = v != 0;
    st = accel_fb_scalar(&t, 2, 4, 0, &v);
    if (st != ACCEL_OK) return st;
    buffer = (uint32_t)v;
    if (buffer >= m->n_buffers) return ACCEL_E_TFLITE_BUFFER;
    st = accel__tfl_buffer(m, buffer, &data);
    if (st != ACCEL_OK) return st;
    if (data.p && data.len != out->bytes) return ACCEL_E_TFLITE_BUFFER;
    out->data = data.p;
    return accel__tfl_quant(m, &t, out);
}

ACCELDEF accel_status accel_tflite_tensor_scale(const accel_tflite_model *m, const accel_tflite_tensor *t,
                                                uint32_t k, uint32_t *bits, int32_t *zero_point)
{
    if (!m || !t || !bits || !zero_point) return ACCEL_E_NULL;
    if (k >= t->n_scales) return ACCEL_E_ARG;
    *bits = accel_load_u32le(m->buf + t->scales_ + 4u * (size_t)k);
    *zero_point = (int32_t)(int64_t)accel_load_u64le(m->buf + t->zero_points_ + 8u * (size_t)k);
    return ACCEL_OK;
}

/* The BuiltinOptions union type each known operator carries (0: none expected). */
ACCEL__TFL_STATIC int accel__tfl_options_type(int32_t code)
{
    switch (code) {
    case ACCEL_TFLITE_OP_CONV_2D: return 1;
    case ACCEL_TFLITE_OP_DEPTHWISE_CONV_2D: return 2;
    case ACCEL_TFLITE_OP_AVERAGE_POOL_2D: case ACCEL_TFLITE_OP_MAX_POOL_2D: return 5;
    case ACCEL_TFLITE_OP_SVDF: return 6;
    case ACCEL_TFLITE_OP_FULLY_CONNECTED: return 8;
    case ACCEL_TFLITE_OP_SOFTMAX: return 9;
    case ACCEL_TFLITE_OP_CONCATENATION: return 10;
    case ACCEL_TFLITE_OP_ADD: return 11;
    case ACCEL_TFLITE_OP_RESHAPE: return 17;
    case ACCEL_TFLITE_OP_MUL: return 21;
    case ACCEL_TFLITE_OP_DEQUANTIZE: return 38;
    case ACCEL_TFLITE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return 71;
    default: return -1; /* not checked */
    }
}

ACCEL__TFL_STATIC accel_status accel__tfl_opcode(const accel_tflite_model *m, uint32_t index, int32_t *code)
{
    accel_fb_table t;
    uint64_t dep;
    int32_t bc, d;
    accel_status st = accel__tfl_table(m, m->opcodes_, index, &t);
    if (st == ACCEL_OK) st = accel_fb_scalar(&t, 0, 1, 0, &dep);
    if (st == ACCEL_OK) st = accel_fb_i32(&t, 3, 0, &bc);
    if (st != ACCEL_OK) return st;
    d = (dep & 0x80u) ? (int32_t)dep - 256 : (int32_t)dep;
    /* codes above 127 live only in builtin_code; the old byte then holds 127 */
    if (d < 0 || bc < 0) return ACCEL_E_TFLITE_OPCODE;
    if (bc > 127 && d != 127) return ACCEL_E_TFLITE_OPCODE;
    if (bc != 0 && bc <= 127 && bc != d) return ACCEL_E_TFLITE_OPCODE;
    *code = bc > d ? bc : d;
    return ACCEL_OK;
}

ACCEL__TFL_STATIC accel_status accel__tfl_index_list(const accel_tflite_model *m, size_t pos, uint32_t n, int allow_absent)
{
    uint32_t k;
    for (k = 0; k < n; k++) {
        int32_t v = accel__tfl_s32(accel_load_u32le(m->buf + pos + 4u * (size_t)k));
        if (v == -1 && allow_absent) continue;
        if (v < 0 || (uint32_t)v >= m->n_tensors) return ACCEL_E_TFLITE_TENSOR_INDEX;
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_op_info(const accel_tflite_model *m, uint32_t index, accel_tflite_op *out)
{
    accel_fb_table t;
    uint64_t v;
    size_t ip;
    uint32_t n_im;
    int want;
    accel_status st;
    if (!m || !out) return ACCEL_E_NULL;
    if (index >= m->n_ops) return ACCEL_E_ARG;
    ACCEL_MEMSET(out, 0, sizeof *out);
    st = accel__tfl_table(m, m->ops_, index, &t);
    if (st == ACCEL_OK) st = accel_fb_scalar(&t, 0, 4, 0, &v);
    if (st != ACCEL_OK) return st;
    if (v >= m->n_opcodes) return ACCEL_E_TFLITE_OPCODE;
    st = accel__tfl_opcode(m, (uint32_t)v, &out->code);
    if (st == ACCEL_OK) st = accel_fb_vector(&t, 1, 4, &out->inputs_, &out->n_inputs);
    if (st == ACCEL_OK) st = accel_fb_vector(&t, 2, 4, &out->outputs_, &out->n_outputs);
    if (st == ACCEL_OK) st = accel_fb_vector(&t, 8, 4, &ip, &n_im);
    if (st == ACCEL_OK) st = accel_fb_scalar(&t, 3, 1, 0, &v);
    if (st != ACCEL_OK) return st;
    out->n_intermediates = n_im;
    st = accel__tfl_index_list(m, out->inputs_, out->n_inputs, 1);
    if (st == ACCEL_OK) st = accel__tfl_index_list(m, out->outputs_, out->n_outputs, 0);
    if (st == ACCEL_OK) st = accel__tfl_index_list(m, ip, n_im, 0);
    if (st != ACCEL_OK) return st;
    out->options_type = (int)v;
    st = accel_fb_subtable(&t, 4, &out->options_, &out->has_options_);
    if (st != ACCEL_OK) return st;
    if (out->has_options_ && out->options_type == 0) return ACCEL_E_TFLITE_OPTIONS;
    if (!out->has_options_ && out->options_type != 0) return ACCEL_E_TFLITE_OPTIONS;
    want = accel__tfl_options_type(out->code);
    if (want >= 0 && out->options_type != 0 && out->options_type != want) return ACCEL_E_TFLITE_OPTIONS;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_op_tensor(const accel_tflite_model *m, const accel_tflite_op *op,
                                             int is_output, uint32_t k, int32_t *tensor)
{
    if (!m || !op || !tensor) return ACCEL_E_NULL;
    if (k >= (is_output ? op->n_outputs : op->n_inputs)) {
        *tensor = -1; /* an optional input left off the end of the list */
        return ACCEL_OK;
    }
    *tensor = accel__tfl_s32(accel_load_u32le(m->buf + (is_output ? op->outputs_ : op->inputs_) + 4u * (size_t)k));
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_graph_tensor(const accel_tflite_model *m, int is_output, uint32_t k,
                                                uint32_t *tensor)
{
    if (!m || !tensor) return ACCEL_E_NULL;
    if (k >= (is_output ? m->n_outputs : m->n_inputs)) return ACCEL_E_ARG;
    *tensor = accel_load_u32le(m->buf + (is_output ? m->outputs_ : m->inputs_) + 4u * (size_t)k);
    return ACCEL_OK;
}

ACCELDEF const char *accel_tflite_op_name(int32_t code)
{
    static const struct { int16_t code; const char *name; } names[] = {
        {0, "ADD"}, {1, "AVERAGE_POOL_2D"}, {2, "CONCATENATION"}, {3, "CONV_2D"},
        {4, "DEPTHWISE_CONV_2D"}, {5, "DEPTH_TO_SPACE"}, {6, "DEQUANTIZE"}, {8, "FLOOR"},
        {9, "FULLY_CONNECTED"}, {11, "L2_NORMALIZATION"}, {12, "L2_POOL_2D"}, {14, "LOGISTIC"},
        {16, "LSTM"}, {17, "MAX_POOL_2D"}, {18, "MUL"}, {19, "RELU"}, {21, "RELU6"},
        {22, "RESHAPE"}, {23, "RESIZE_BILINEAR"}, {25, "SOFTMAX"}, {26, "SPACE_TO_DEPTH"},
        {27, "SVDF"}, {28, "TANH"}, {32, "CUSTOM"}, {34, "PAD"}, {39, "TRANSPOSE"}, {40, "MEAN"},
        {41, "SUB"}, {42, "DIV"}, {43, "SQUEEZE"}, {44, "UNIDIRECTIONAL_SEQUENCE_LSTM"},
        {45, "STRIDED_SLICE"}, {49, "SPLIT"}, {53, "CAST"}, {55, "MAXIMUM"}, {57, "MINIMUM"},
        {60, "PADV2"}, {67, "TRANSPOSE_CONV"}, {70, "EXPAND_DIMS"}, {83, "PACK"},
        {97, "RESIZE_NEAREST_NEIGHBOR"}, {98, "LEAKY_RELU"}, {114, "QUANTIZE"},
        {117, "HARD_SWISH"}};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == code) return names[i].name;
    return NULL;
}

ACCELDEF accel_status accel_tflite_open(accel_tflite_model *m, const uint8_t *buf, size_t len)
{
    accel_fb_table root, sg;
    uint32_t k, j;
    uint64_t ver;
    size_t pos;
    accel_status st;
    if (!m || !buf) return ACCEL_E_NULL;
    ACCEL_MEMSET(m, 0, sizeof *m);
    m->buf = buf;
    m->len = len;
    st = accel_fb_root(&root, buf, len);
    if (st == ACCEL_OK) st = accel_fb_scalar(&root, ACCEL__TFL_MODEL_VERSION, 4, 0, &ver);
    if (st != ACCEL_OK) return st;
    if (ver != 3u) return ACCEL_E_TFLITE_VERSION;
    m->version = (uint32_t)ver;
    st = accel_fb_vector(&root, ACCEL__TFL_MODEL_OPCODES, 4, &m->opcodes_, &m->n_opcodes);
    if (st == ACCEL_OK) st = accel_fb_vector(&root, ACCEL__TFL_MODEL_SUBGRAPHS, 4, &pos, &m->n_subgraphs);
    if (st == ACCEL_OK) st = accel_fb_vector(&root, ACCEL__TFL_MODEL_BUFFERS, 4, &m->buffers_, &m->n_buffers);
    if (st == ACCEL_OK) st = accel_fb_string(&root, ACCEL__TFL_MODEL_DESCRIPTION, &m->description);
    if (st != ACCEL_OK) return st;
    if (m->n_subgraphs == 0) return ACCEL_E_TFLITE_SUBGRAPH;
    st = accel__tfl_table(m, pos, 0, &sg);
    if (st == ACCEL_OK) st = accel_fb_vector(&sg, ACCEL__TFL_SG_TENSORS, 4, &m->tensors_, &m->n_tensors);
    if (st == ACCEL_OK) st = accel_fb_vector(&sg, ACCEL__TFL_SG_INPUTS, 4, &m->inputs_, &m->n_inputs);
    if (st == ACCEL_OK) st = accel_fb_vector(&sg, ACCEL__TFL_SG_OUTPUTS, 4, &m->outputs_, &m->n_outputs);
    if (st == ACCEL_OK) st = accel_fb_vector(&sg, ACCEL__TFL_SG_OPERATORS, 4, &m->ops_, &m->n_ops);
    if (st != ACCEL_OK) return st;
    if (!m->tensors_ || !m->ops_ || m->n_outputs == 0) return ACCEL_E_TFLITE_SUBGRAPH;
    if ((uint64_t)m->n_tensors + 2u * (uint64_t)m->n_ops > ACCEL__TFL_MAX_ENTRIES ||
        ((uint64_t)m->n_tensors + 2u * (uint64_t)m->n_ops) * 12u > (uint64_t)SIZE_MAX)
        return ACCEL_E_TOO_LONG;
    st = accel__tfl_index_list(m, m->inputs_, m->n_inputs, 0);
    if (st == ACCEL_OK) st = accel__tfl_index_list(m, m->outputs_, m->n_outputs, 0);
    if (st != ACCEL_OK) return st;
    for (k = 0; k < m->n_opcodes; k++) {
        int32_t code;
        st = accel__tfl_opcode(m, k, &code);
        if (st != ACCEL_OK) return st;
    }
    for (k = 0; k < m->n_tensors; k++) {
        accel_tflite_tensor t;
        st = accel_tflite_tensor_info(m, k, &t);
        if (st != ACCEL_OK) return st;
    }
    /* the graph: each tensor an operator writes is written once, by one operator, and is not
     * constant or a graph input; each tensor read is constant, variable, a graph input or
     * written by an earlier operator */
    for (k = 0; k < m->n_ops; k++) {
        accel_tflite_op op;
        st = accel_tflite_op_info(m, k, &op);
        if (st != ACCEL_OK) return st;
        for (j = 0; j < op.n_outputs + op.n_inputs; j++) {
            int is_out = j < op.n_outputs;
            int32_t ti;
            uint32_t p, q;
            int found = 0;
            accel_tflite_tensor t;
            st = accel_tflite_op_tensor(m, &op, is_out, is_out ? j : j - op.n_outputs, &ti);
            if (st != ACCEL_OK) return st;
            if (ti < 0) continue;
            st = accel_tflite_tensor_info(m, (uint32_t)ti, &t);
            if (st != ACCEL_OK) return st;
            if (t.data || t.is_variable) {
                if (is_out && t.data) return ACCEL_E_TFLITE_GRAPH;
                continue;
            }
            for (q = 0; q < m->n_inputs && !found; q++)
                found = accel_load_u32le(m->buf + m->inputs_ + 4u * (size_t)q) == (uint32_t)ti;
            if (is_out && found) return ACCEL_E_TFLITE_GRAPH;
            /* writers among the other operators (outputs of earlier ones for a read) */
            for (p = 0; p < (is_out ? m->n_ops : k) && (is_out || !found); p++) {
                accel_tflite_op o2;
                uint32_t r;
                if (is_out && p == k) continue;
                st = accel_tflite_op_info(m, p, &o2);
                if (st != ACCEL_OK) return st;
                for (r = 0; r < o2.n_outputs; r++) {
                    if (accel_load_u32le(m->buf + o2.outputs_ + 4u * (size_t)r) != (uint32_t)ti) continue;
                    if (is_out) return ACCEL_E_TFLITE_GRAPH;
                    found = 1;
                }
            }
            if (!is_out && !found) return ACCEL_E_TFLITE_GRAPH;
        }
    }
    return ACCEL_OK;
}

/* ---------------------------------------------------------------- @tflite.ops: kernels */
/* A kernel runs in three modes: check (rt and persist NULL: validate types, shapes, quantization
 * and options, say how much scratch and how much persistent memory it needs), prepare (rt NULL,
 * persist set, at init: derive the constants, the fixed-point multipliers above all, once) and
 * run (rt set: load the constants, compute). All take the same path up to the arithmetic, so
 * what check accepted is exactly what run computes on. */
typedef struct accel__tfl_ent {
    uint32_t off;  /* byte offset in the data area; ACCEL__TFL_NONE: no memory */
    uint32_t size; /* bytes, a multiple of 4 */
    uint16_t first, last;
} accel__tfl_ent;
#define ACCEL__TFL_NONE 0xFFFFFFFFUL

typedef struct accel__tfl_ctx {
    const accel_tflite_model *m;
    accel_tflite *rt; /* NULL: check mode */
    accel_tflite_op op;
    uint32_t index;
    uint8_t *scratch; /* run mode: this operator's scratch */
    size_t scratch_len;
    size_t scratch_need; /* check mode: what the kernel asks for */
    uint8_t *persist;    /* prepare and run: this operator's constants (multipliers, ...) */
    size_t persist_len, persist_used, persist_need;
} accel__tfl_ctx;

typedef struct accel__tfl_io {
    accel_tflite_tensor t;
    int32_t index;     /* -1: absent */
    const uint8_t *in; /* run mode: the data */
    uint8_t *out;      /* run mode: the data when it is writable (not constant) */
} accel__tfl_io;

ACCEL__TFL_STATIC accel__tfl_ent *accel__tfl_ents(const accel_tflite *rt)
{
    return (accel__tfl_ent *)(void *)rt->arena;
}

/* The arena's alignment: int32_t's (4 on 32/64-bit targets, 1 on an AVR). */
typedef struct accel__tfl_align_probe {
    char c;
    int32_t x;
} accel__tfl_align_probe;
#define ACCEL__TFL_ALIGN (offsetof(accel__tfl_align_probe, x))
/* A model's int32 data is little-endian: read in place only on a little-endian target. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ACCEL__TFL_LE 1
#else
#define ACCEL__TFL_LE 0
#endif

ACCEL__TFL_STATIC size_t accel__tfl_table_bytes(const accel_tflite_model *m)
{
    return (size_t)(sizeof(accel__tfl_ent) * ((uint32_t)m->n_tensors + 2u * m->n_ops)); /* fits: open checks */
}

ACCEL__TFL_STATIC accel_status accel__tfl_get(const accel__tfl_ctx *c, int is_out, uint32_t k, accel__tfl_io *io)
{
    accel_status st = accel_tflite_op_tensor(c->m, &c->op, is_out, k, &io->index);
    io->in = NULL;
    io->out = NULL;
    if (st != ACCEL_OK) return st;
    if (io->index < 0) {
        ACCEL_MEMSET(&io->t, 0, sizeof io->t);
        return ACCEL_OK;
    }
    st = accel_tflite_tensor_info(c->m, (uint32_t)io->index, &io->t);
    if (st != ACCEL_OK || !c->rt) return st;
    if (io->t.data) {
        io->in = io->t.data;
    } else {
        const accel__tfl_ent *e = accel__tfl_ents(c->rt) + io->index;
        if (e->off == ACCEL__TFL_NONE) return ACCEL_E_STATE;
        io->out = c->rt->arena + accel__tfl_table_bytes(c->m) + e->off;
        io->in = io->out;
    }
    return ACCEL_OK;
}

/* Required input (present, of one of the types in the mask 1 << type). */
ACCEL__TFL_STATIC accel_status accel__tfl_need(const accel__tfl_ctx *c, int is_out, uint32_t k, uint32_t types,
                                    accel__tfl_io *io)
{
    accel_status st = accel__tfl_get(c, is_out, k, io);
    if (st != ACCEL_OK) return st;
    if (io->index < 0) return ACCEL_E_TFLITE_ARITY;
    if (!((types >> io->t.type) & 1u)) return ACCEL_E_UNSUPPORTED;
    if (is_out && c->rt && !io->out) return ACCEL_E_TFLITE_GRAPH;
    return ACCEL_OK;
}
#define ACCEL__TFL_T(x) ((uint32_t)1 << ACCEL_TFLITE_##x)

ACCEL__TFL_STATIC accel_status accel__tfl_opt(const accel__tfl_ctx *c, unsigned field, unsigned size, uint64_t def,
                                   uint64_t *v)
{
    if (!c->op.has_options_) {
        *v = def;
        return ACCEL_OK;
    }
    return accel_fb_scalar(&c->op.options_, field, size, def, v);
}

ACCEL__TFL_STATIC accel_status accel__tfl_opt_i32(const accel__tfl_ctx *c, unsigned field, int32_t def, int32_t *v)
{
    uint64_t u;
    accel_status st = accel__tfl_opt(c, field, 4, (uint32_t)def, &u);
    *v = accel__tfl_s32((uint32_t)u);
    return st;
}

/* ---- @tflite.ops: the scales' arithmetic, exactly as IEEE-754 does it, in integers. TFLite derives each
 * multiplier from float32 scales in double (a product of two floats is exact in a double; a
 * quotient is rounded to 53 bits, then QuantizeMultiplier rounds to 31) and a few values in
 * float (rounded to 24 bits). Doing the same roundings on integers gives TFLite's multipliers on
 * every target, with no floating point at all (8-bit parts have a 32-bit double; MCUs without
 * an FPU would pay kilobytes of soft-float code). A number here is m * 2^e, m < 2^63. */
typedef struct accel__tfl_num {
    uint64_t m;
    int32_t e;
} accel__tfl_num;

/* A non-negative float32 from its bits (subnormals included). */
ACCEL__TFL_STATIC accel__tfl_num accel__tfl_num_f32(uint32_t bits)
{
    accel__tfl_num n;
    uint32_t ex = (bits >> 23) & 0xFFu;
    n.m = bits & 0x7FFFFFUL;
    if (ex) n.m |= 0x800000UL;
    n.e = ex ? (int32_t)ex - 150 : -149;
    return n;
}

ACCEL__TFL_STATIC int accel__tfl_bitlen(uint64_t m)
{
    int n = 0;
    while (m) {
        m >>= 1;
        n++;
    }
    return n;
}

/* Exact product (both mantissas below 2^32: floats, or a float and a power of two). */
ACCEL__TFL_STATIC accel__tfl_num accel__tfl_num_mul(accel__tfl_num a, accel__tfl_num b)
{
    accel__tfl_num n;
    n.m = a.m * b.m;
    n.e = a.e + b.e;
    return n;
}

/* Round q (with `sticky`: nonzero bits were dropped below it) to `bits` significant bits,
 * to nearest, ties to even. */
ACCEL__TFL_STATIC accel__tfl_num accel__tfl_num_round(accel__tfl_num q, int sticky, int bits)
{
    int len = accel__tfl_bitlen(q.m);
    if (len > bits) {
        int sh = len - bits;
        uint64_t rem = q.m & (((uint64_t)1 << sh) - 1u), half = (uint64_t)1 << (sh - 1);
        q.m >>= sh;
        q.e += sh;
        if (rem > half || (rem == half && (sticky || (q.m & 1u)))) q.m++;
        if (q.m >> bits) {
            q.m >>= 1;
            q.e++;
        }
    }
    return q;
}

/* a / b rounded to `bits` significant bits (53: a double, 24: a float); b > 0. */
ACCEL__TFL_STATIC accel__tfl_num accel__tfl_num_div(accel__tfl_num a, accel__tfl_num b, int bits)
{
    accel__tfl_num q;
    uint64_t r;
    q.m = a.m / b.m;
    r = a.m % b.m;
    q.e = a.e - b.e;
    if (!a.m) return q;
    while (accel__tfl_bitlen(q.m) < bits + 2) { /* long division, one bit a turn (b.m < 2^62) */
        r <<= 1;
        q.m <<= 1;
        q.e--;
        if (r >= b.m) {
            r -= b.m;
            q.m |= 1u;
        }
    }
    return accel__tfl_num_round(q, r != 0, bits);
}

/* QuantizeMultiplier of a positive double value: frexp, the fraction times 2^31 rounded half away
 * from zero, 2^31 renormalised, tiny values to (0, 0). */
ACCEL__TFL_STATIC accel_status accel__tfl_qmul(accel__tfl_num x, int32_t *mult, int32_t *shift)
{
    uint64_t t;
    int32_t sh;
    *mult = 0;
    *shift = 0;
    if (!x.m) return ACCEL_OK;
    x = accel__tfl_num_round(x, 0, 53);
    while (x.m < ((uint64_t)1 << 52)) {
        x.m <<= 1;
        x.e--;
    }
    sh = x.e + 53;
    t = (x.m + ((uint64_t)1 << 21)) >> 22;
    if (t == ((uint64_t)1 << 31)) {
        t >>= 1;
        sh++;
    }
    if (sh < -31) return ACCEL_OK;
    if (sh > 31) return ACCEL_E_TFLITE_QUANT;
    *mult = (int32_t)t;
    *shift = sh;
    return ACCEL_OK;
}

/* floor(x) clamped to 0..limit (x >= 0). */
ACCEL__TFL_STATIC int32_t accel__tfl_num_floor(accel__tfl_num x, int32_t limit)
{
    uint64_t v;
    if (x.e >= 0) {
        if (accel__tfl_bitlen(x.m) + x.e > 31) return limit;
        v = x.m << x.e;
    } else {
        v = x.e <= -64 ? 0u : x.m >> -x.e;
    }
    return v > (uint64_t)limit ? limit : (int32_t)v;
}

/* a * b / c of three float32 scales, as TFLite's double arithmetic gives it. */
ACCEL__TFL_STATIC accel__tfl_num accel__tfl_scale3(uint32_t a, uint32_t b, uint32_t c)
{
    return accel__tfl_num_div(accel__tfl_num_mul(accel__tfl_num_f32(a), accel__tfl_num_f32(b)),
                              accel__tfl_num_f32(c), 53);
}

ACCEL__TFL_STATIC int accel__tfl_qrange(int type, int32_t *lo, int32_t *hi)
{
    switch (type) {
    case ACCEL_TFLITE_INT8: *lo = -128; *hi = 127; return 1;
    case ACCEL_TFLITE_UINT8: *lo = 0; *hi = 255; return 1;
    case ACCEL_TFLITE_INT16: *lo = -32768; *hi = 32767; return 1;
    case ACCEL_TFLITE_INT32: *lo = -2147483647L - 1; *hi = 2147483647L; return 1;
    default: return 0;
    }
}

/* zero_point + round(f / scale) with f in {-1, 0, 1, 6}: a float quotient (24 bits), rounded half
 * away from zero (TFLite's Quantize helper). */
ACCEL__TFL_STATIC accel_status accel__tfl_quantize1(const accel_tflite_tensor *o, int32_t f, int32_t *q)
{
    accel__tfl_num x;
    int32_t t = 0;
    x.m = (uint64_t)(f < 0 ? -f : f);
    x.e = 0;
    if (f) {
        accel__tfl_num v = accel__tfl_num_div(x, accel__tfl_num_f32(o->scale_bits), 24);
        if (v.e >= 0) {
            if (accel__tfl_bitlen(v.m) + v.e > 31) return ACCEL_E_TFLITE_QUANT;
            t = (int32_t)(v.m << v.e);
        } else {
            if (v.e < -40) v.m = 0, v.e = -40;
            t = (int32_t)((v.m + ((uint64_t)1 << (-v.e - 1))) >> -v.e);
        }
        if (f < 0) t = -t;
    }
    *q = o->zero_point + t;
    return ACCEL_OK;
}

/* Fused activation: NONE 0, RELU 1, RELU_N1_TO_1 2, RELU6 3 (CalculateActivationRangeQuantized). */
ACCEL__TFL_STATIC accel_status accel__tfl_act(uint64_t act, const accel_tflite_tensor *o, int32_t *mn, int32_t *mx)
{
    int32_t t;
    accel_status st = ACCEL_OK;
    if (!accel__tfl_qrange(o->type, mn, mx)) return ACCEL_E_UNSUPPORTED;
    if (act == 0) return ACCEL_OK;
    if (act > 3) return ACCEL_E_UNSUPPORTED;
    if (o->n_scales == 0 || o->scale_bits == 0) return ACCEL_E_TFLITE_QUANT;
    st = accel__tfl_quantize1(o, act == 2 ? -1 : 0, &t);
    if (st != ACCEL_OK) return st;
    if (t > *mn) *mn = t;
    if (act == 1) return ACCEL_OK;
    st = accel__tfl_quantize1(o, act == 2 ? 1 : 6, &t);
    if (st == ACCEL_OK && t < *mx) *mx = t;
    return st;
}

/* Scales must be there (and > 0) where a kernel divides by them. */
ACCEL__TFL_STATIC accel_status accel__tfl_quantized(const accel_tflite_tensor *t)
{
    if (t->n_scales == 0 || (t->scale_bits & 0x7FFFFFFFUL) == 0) return ACCEL_E_TFLITE_QUANT;
    return ACCEL_OK;
}

ACCEL__TFL_STATIC size_t accel__tfl_align4(size_t n)
{
    return (n + 3u) & ~(size_t)3u;
}

/* The scratch a kernel uses: check mode adds up the request, run mode hands out the bytes. */
ACCEL__TFL_STATIC uint8_t *accel__tfl_take(accel__tfl_ctx *c, size_t *used, size_t n)
{
    uint8_t *p = NULL;
    n = accel__tfl_align4(n);
    if (c->rt && c->scratch && *used + n <= c->scratch_len) p = c->scratch + *used;
    *used += n;
    if (!c->rt) c->scratch_need = *used;
    return p;
}

/* n words of the operator's persistent constants: NULL in check mode (counted). In run mode
 * they hold what prepare wrote. */
ACCEL__TFL_STATIC int32_t *accel__tfl_keep(accel__tfl_ctx *c, size_t n)
{
    int32_t *p = NULL;
    size_t b = 4u * n;
    if (c->persist && c->persist_used + b <= c->persist_len) p = (int32_t *)(void *)(c->persist + c->persist_used);
    c->persist_used += b;
    if (!c->persist) c->persist_need = c->persist_used;
    return p;
}

ACCEL__TFL_STATIC uint32_t accel__tfl_dim(const accel_tflite_tensor *t, uint32_t k)
{
    return (uint32_t)t->dims[k];
}

/* Per-channel (or per-tensor) output multipliers of a conv / FC filter, and the bias copied to
 * aligned memory (model buffers need no alignment). */
ACCEL__TFL_STATIC accel_status accel__tfl_conv_quant(accel__tfl_ctx *c, const accel__tfl_io *in, const accel__tfl_io *w,
                                          const accel__tfl_io *bias, const accel__tfl_io *out,
                                          uint32_t channels, uint32_t qdim, uint64_t act, size_t *used,
                                          accel_mac_quant *q, const int32_t **bias_out)
{
    int32_t *mult, *shift, *b;
    uint32_t k, nq;
    accel_status st;
    if (accel__tfl_quantized(&in->t) || accel__tfl_quantized(&w->t) || accel__tfl_quantized(&out->t))
        return ACCEL_E_TFLITE_QUANT;
    if (w->t.n_scales != 1u && (w->t.n_scales != channels || (uint32_t)w->t.quantized_dimension != qdim))
        return ACCEL_E_TFLITE_QUANT;
    if (bias->index >= 0 && (bias->t.type != ACCEL_TFLITE_INT32 || bias->t.elements != channels))
        return bias->t.type != ACCEL_TFLITE_INT32 ? ACCEL_E_UNSUPPORTED : ACCEL_E_TFLITE_SHAPE;
    if (bias->index >= 0 && !bias->t.data) return ACCEL_E_UNSUPPORTED; /* a bias computed at run time */
    ACCEL_MEMSET(q, 0, sizeof *q);
    q->dtype = in->t.type == ACCEL_TFLITE_UINT8 ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8;
    q->input_offset = -in->t.zero_point;
    q->filter_offset = -w->t.zero_point;
    q->output_offset = out->t.zero_point;
    nq = w->t.n_scales > 1u ? channels : 1u; /* per channel, or one for the tensor */
    q->count = (size_t)nq;
    q->rounding = ACCEL_MAC_ROUND_DOUBLE;
    /* persistent: act_min, act_max, the multipliers and shifts; the bias is read in place when
     * the model buffer keeps it 4-byte aligned, else copied to scratch at each run */
    mult = accel__tfl_keep(c, 2);
    if (c->rt) {
        if (!mult) return ACCEL_E_STATE;
        q->act_min = mult[0];
        q->act_max = mult[1];
    } else {
        st = accel__tfl_act(act, &out->t, &q->act_min, &q->act_max);
        if (st != ACCEL_OK) return st;
        if (mult) {
            mult[0] = q->act_min;
            mult[1] = q->act_max;
        }
    }
    mult = accel__tfl_keep(c, (size_t)nq);
    shift = accel__tfl_keep(c, (size_t)nq);
    q->multiplier = mult;
    q->shift = shift;
    *bias_out = NULL;
    if (bias->index >= 0) {
        if ((uintptr_t)bias->t.data % ACCEL__TFL_ALIGN == 0 && ACCEL__TFL_LE) { /* little-endian in place */
            *bias_out = (const int32_t *)(const void *)bias->t.data;
        } else {
            b = (int32_t *)(void *)accel__tfl_take(c, used, 4u * (size_t)channels);
            if (b)
                for (k = 0; k < channels; k++) b[k] = accel__tfl_s32(accel_load_u32le(bias->t.data + 4u * (size_t)k));
            *bias_out = b;
        }
    }
    if (c->rt) return mult && shift && (*bias_out || bias->index < 0) ? ACCEL_OK : ACCEL_E_STATE;
    for (k = 0; k < nq; k++) {
        uint32_t sb = w->t.scale_bits;
        int32_t zp, m1, s1;
        if (w->t.n_scales > 1u) {
            st = accel_tflite_tensor_scale(c->m, &w->t, k, &sb, &zp);
            if (st != ACCEL_OK) return st;
        }
        st = accel__tfl_qmul(accel__tfl_scale3(in->t.scale_bits, sb, out->t.scale_bits), &m1, &s1);
        if (st != ACCEL_OK) return st;
        if (mult && shift) {
            mult[k] = m1;
            shift[k] = s1;
        }
    }
    return ACCEL_OK;
}

ACCEL__TFL_STATIC accel_status accel__tfl_fc(accel__tfl_ctx *c)
{
    accel__tfl_io in, w, bias, out;
    accel_mac_quant q;
    const int32_t *b;
    uint64_t act, fmt;
    uint32_t depth, units, batches;
    size_t used = 0;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 1, ACCEL__TFL_T(INT8), &w);
    if (st == ACCEL_OK) st = accel__tfl_get(c, 0, 2, &bias);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8), &out);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 0, 1, 0, &act);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 1, 1, 0, &fmt);
    if (st != ACCEL_OK) return st;
    if (fmt != 0) return ACCEL_E_UNSUPPORTED; /* shuffled weights */
    if (w.t.ndims != 2 || c->op.n_outputs != 1) return ACCEL_E_TFLITE_SHAPE;
    units = accel__tfl_dim(&w.t, 0);
    depth = accel__tfl_dim(&w.t, 1);
    if (depth == 0 || units == 0 || in.t.elements % depth != 0) return ACCEL_E_TFLITE_SHAPE;
    batches = (uint32_t)(in.t.elements / depth); /* elements fit 32 bits (open) */
    if ((uint64_t)batches * units != out.t.elements) return ACCEL_E_TFLITE_SHAPE;
    st = accel__tfl_conv_quant(c, &in, &w, &bias, &out, units, 0, act, &used, &q, &b);
    if (st != ACCEL_OK || !c->rt) return st;
    return accel_mac_fully_connected(batches, depth, units, in.in, in.t.bytes, w.in, w.t.bytes, b,
                                     b ? (size_t)units : 0u, &q, out.out, out.t.bytes);
}

/* TFLite's output size and padding (ComputeOutSize, ComputePaddingWithOffset). */
ACCEL__TFL_STATIC accel_status accel__tfl_pad(uint64_t padding, uint32_t in, uint32_t k, uint32_t stride, uint32_t dil,
                                   uint32_t out, uint32_t *pad)
{
    uint64_t eff = (uint64_t)(k - 1u) * dil + 1u, want, total;
    if (k == 0 || stride == 0 || dil == 0) return ACCEL_E_TFLITE_OPTIONS;
    if (padding == 0) want = ((uint64_t)in + stride - 1u) / stride;
    else if (padding == 1) want = in + (uint64_t)stride < eff ? 0 : ((uint64_t)in + stride - eff) / stride;
    else return ACCEL_E_TFLITE_OPTIONS;
    if (want != out) return ACCEL_E_TFLITE_SHAPE;
    total = out ? ((uint64_t)out - 1u) * stride + eff : 0;
    total = total > in ? total - in : 0;
    if (total / 2u > 65535u) return ACCEL_E_TFLITE_SHAPE;
    *pad = (uint32_t)(total / 2u);
    return ACCEL_OK;
}

/* Options of conv (kind 0), depthwise (1) and pools (2) into a mac geometry. */
ACCEL__TFL_STATIC accel_status accel__tfl_geom(accel__tfl_ctx *c, int kind, const accel_tflite_tensor *in,
                                    const accel_tflite_tensor *w, const accel_tflite_tensor *out,
                                    accel_mac_conv *g, uint64_t *act)
{
    uint64_t padding;
    int32_t sw, sh, dw = 1, dh = 1, fw = 0, fh = 0;
    accel_status st = accel__tfl_opt(c, 0, 1, 0, &padding);
    if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 1, 0, &sw);
    if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 2, 0, &sh);
    if (kind == 0) {
        if (st == ACCEL_OK) st = accel__tfl_opt(c, 3, 1, 0, act);
        if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 4, 1, &dw);
        if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 5, 1, &dh);
    } else if (kind == 1) {
        if (st == ACCEL_OK) st = accel__tfl_opt(c, 4, 1, 0, act);
        if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 5, 1, &dw);
        if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 6, 1, &dh);
    } else {
        if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 3, 0, &fw);
        if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 4, 0, &fh);
        if (st == ACCEL_OK) st = accel__tfl_opt(c, 5, 1, 0, act);
    }
    if (st != ACCEL_OK) return st;
    if (sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0 || fw < 0 || fh < 0 || sw > 65535 || sh > 65535 ||
        dw > 65535 || dh > 65535 || fw > 65535 || fh > 65535)
        return ACCEL_E_TFLITE_OPTIONS;
    if (in->ndims != 4 || out->ndims != 4 || (w && w->ndims != 4)) return ACCEL_E_TFLITE_SHAPE;
    ACCEL_MEMSET(g, 0, sizeof *g);
    g->batches = accel__tfl_dim(in, 0);
    g->in_h = accel__tfl_dim(in, 1);
    g->in_w = accel__tfl_dim(in, 2);
    g->in_c = accel__tfl_dim(in, 3);
    g->out_h = accel__tfl_dim(out, 1);
    g->out_w = accel__tfl_dim(out, 2);
    g->out_c = accel__tfl_dim(out, 3);
    g->k_h = w ? accel__tfl_dim(w, 1) : (uint32_t)fh;
    g->k_w = w ? accel__tfl_dim(w, 2) : (uint32_t)fw;
    g->stride_h = (uint32_t)sh;
    g->stride_w = (uint32_t)sw;
    g->dilation_h = (uint32_t)dh;
    g->dilation_w = (uint32_t)dw;
    if (accel__tfl_dim(out, 0) != g->batches) return ACCEL_E_TFLITE_SHAPE;
    if (g->in_h > 65535u || g->in_w > 65535u || g->in_c > 65535u || g->out_c > 65535u || g->k_h > 65535u ||
        g->k_w > 65535u)
        return ACCEL_E_TFLITE_SHAPE;
    st = accel__tfl_pad(padding, g->in_h, g->k_h, g->stride_h, g->dilation_h, g->out_h, &g->pad_top);
    if (st == ACCEL_OK) st = accel__tfl_pad(padding, g->in_w, g->k_w, g->stride_w, g->dilation_w, g->out_w, &g->pad_left);
    return st;
}

ACCEL__TFL_STATIC accel_status accel__tfl_conv(accel__tfl_ctx *c, int depthwise)
{
    accel__tfl_io in, w, bias, out;
    accel_mac_quant q;
    accel_mac_conv g;
    const int32_t *b;
    uint64_t act = 0;
    size_t used = 0, need = 0;
    uint8_t *scr;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 1, ACCEL__TFL_T(INT8), &w);
    if (st == ACCEL_OK) st = accel__tfl_get(c, 0, 2, &bias);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8), &out);
    if (st == ACCEL_OK) st = accel__tfl_geom(c, depthwise, &in.t, &w.t, &out.t, &g, &act);
    if (st != ACCEL_OK) return st;
    if (depthwise) {
        if (accel__tfl_dim(&w.t, 0) != 1u || accel__tfl_dim(&w.t, 3) != g.out_c || g.in_c == 0 ||
            g.out_c % g.in_c != 0)
            return ACCEL_E_TFLITE_SHAPE;
        g.depth_multiplier = g.out_c / g.in_c;
    } else {
        uint32_t wc = accel__tfl_dim(&w.t, 3);
        if (accel__tfl_dim(&w.t, 0) != g.out_c || wc == 0 || g.in_c % wc != 0) return ACCEL_E_TFLITE_SHAPE;
        g.groups = g.in_c / wc;
        if (g.groups == 0 || g.out_c % g.groups != 0) return ACCEL_E_TFLITE_SHAPE;
    }
    st = accel__tfl_conv_quant(c, &in, &w, &bias, &out, g.out_c, depthwise ? 3u : 0u, act, &used, &q, &b);
    if (st != ACCEL_OK) return st;
    /* A depthwise convolution of a one-channel image is a plain convolution (each output channel
     * one filter over that channel): it runs on conv2d's faster kernels with the filter turned
     * from [1, kh, kw, out_c] to [out_c, kh, kw, 1] once, at init, into the constants. */
    if (depthwise && g.in_c == 1u && w.t.data && (uint64_t)g.k_h * g.k_w * g.out_c <= 0xFFFFFFUL) {
        size_t n = (size_t)g.k_h * (size_t)g.k_w, oc = (size_t)g.out_c;
        int32_t *tw = accel__tfl_keep(c, (n * oc + 3u) / 4u);
        depthwise = 0;
        g.depth_multiplier = 1; /* marks the rewrite: conv2d without scratch (arena stays small) */
        g.groups = 1;
        if (!c->rt && tw) {
            size_t o, t;
            for (o = 0; o < oc; o++)
                for (t = 0; t < n; t++) ((uint8_t *)tw)[o * n + t] = w.t.data[t * oc + o];
        }
        if (c->rt && !tw) return ACCEL_E_STATE;
        w.in = (const uint8_t *)tw;
    }
    /* one input channel per group: the im2col patch costs more than it saves (and arena) */
    if (!depthwise && !g.depth_multiplier && g.in_c != g.groups) {
        st = accel_mac_conv2d_scratch_size(&g, &need);
        if (st != ACCEL_OK) return ACCEL_E_TFLITE_SHAPE;
    }
    scr = accel__tfl_take(c, &used, need);
    if (!c->rt) return ACCEL_OK;
    if (depthwise)
        return accel_mac_depthwise_conv2d(&g, &q, in.in, in.t.bytes, w.in, w.t.bytes, b, b ? (size_t)g.out_c : 0u,
                                          out.out, out.t.bytes);
    return accel_mac_conv2d_with_scratch(&g, &q, in.in, in.t.bytes, w.in, w.t.bytes, b, b ? (size_t)g.out_c : 0u,
                                         out.out, out.t.bytes, scr, scr ? need : 0u);
}

ACCEL__TFL_STATIC accel_status accel__tfl_pool(accel__tfl_ctx *c, int is_max)
{
    accel__tfl_io in, out;
    accel_mac_conv g;
    uint64_t act = 0;
    int32_t mn, mx, *kept;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(UINT8), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(UINT8), &out);
    if (st == ACCEL_OK) st = accel__tfl_geom(c, 2, &in.t, NULL, &out.t, &g, &act);
    if (st != ACCEL_OK) return st;
    if (in.t.type != out.t.type) return ACCEL_E_TFLITE_TYPE;
    if (g.out_c != g.in_c) return ACCEL_E_TFLITE_SHAPE;
    kept = accel__tfl_keep(c, 2);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        mn = kept[0];
        mx = kept[1];
    } else {
        st = accel__tfl_act(act, &out.t, &mn, &mx);
        if (st != ACCEL_OK) return st;
        if (kept) {
            kept[0] = mn;
            kept[1] = mx;
        }
        return ACCEL_OK;
    }
    if (is_max)
        return accel_mac_max_pool2d(&g, in.t.type == ACCEL_TFLITE_UINT8 ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, mn, mx,
                                    in.in, in.t.bytes, out.out, out.t.bytes);
    return accel_mac_average_pool2d(&g, in.t.type == ACCEL_TFLITE_UINT8 ? ACCEL_MAC_UINT8 : ACCEL_MAC_INT8, mn,
                                    mx, in.in, in.t.bytes, out.out, out.t.bytes);
}

/* ---- @tflite.ops: gemmlowp fixed point, as TFLite's quantized softmax uses it ---- */
ACCEL__TFL_STATIC int32_t accel__tfl_srdhm(int32_t a, int32_t b)
{
    return accel_mac_saturating_rounding_doubling_high_mul(a, b);
}

ACCEL__TFL_STATIC int32_t accel__tfl_rdbpot(int32_t x, int e)
{
    return accel_mac_rounding_divide_by_power_of_two(x, e);
}

/* SaturatingRoundingMultiplyByPOT with a positive exponent: x * 2^e saturated to int32. */
ACCEL__TFL_STATIC int32_t accel__tfl_sat_shl(int32_t x, int e)
{
    int32_t threshold = (int32_t)(((int32_t)1 << (31 - e)) - 1);
    if (x > threshold) return INT32_MAX;
    if (x < -threshold) return INT32_MIN;
    return (int32_t)((uint32_t)x << e);
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out. */
ACCEL__TFL_STATIC int32_t accel__tfl_exp_quarter(int32_t a)
{
    const int32_t constant_term = 1895147668, one_third = 715827883;
    const int32_t one_eighth = (int32_t)1 << 28;
    int32_t x = a + one_eighth, x2, x3, x4, x4_4, poly;
    x2 = accel__tfl_srdhm(x, x);
    x3 = accel__tfl_srdhm(x2, x);
    x4 = accel__tfl_srdhm(x2, x2);
    x4_4 = accel__tfl_rdbpot(x4, 2);
    poly = accel__tfl_rdbpot(accel__tfl_srdhm(x4_4 + x3, one_third) + x2, 1);
    return constant_term + accel__tfl_srdhm(constant_term, x + poly);
}

/* exp_on_negative_values for Q5.26 input (a <= 0), Q0.31 result. */
ACCEL__TFL_STATIC int32_t accel__tfl_exp_neg(int32_t a)
{
    static const int32_t mults[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
    const int frac = 26;
    const int32_t quarter = (int32_t)1 << (frac - 2);
    int32_t mod = (a & (quarter - 1)) - quarter;
    int32_t result = accel__tfl_exp_quarter(accel__tfl_sat_shl(mod, 5));
    int32_t remainder = mod - a;
    int k;
    for (k = 0; k < 7; k++) /* exponents -2 .. +4: bits frac-2 .. frac+4 of the remainder */
        if (remainder & ((int32_t)1 << (frac - 2 + k))) result = accel__tfl_srdhm(result, mults[k]);
    /* integer bits 5: the clamp at -32 does not apply (it needs more than 5) */
    if (a == 0) result = INT32_MAX;
    return result;
}

/* one_over_one_plus_x_for_x_in_0_1, Q0.31 in, Q0.31 out. */
ACCEL__TFL_STATIC int32_t accel__tfl_recip(int32_t a)
{
    int64_t s = (int64_t)a + INT32_MAX;
    int32_t half = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2); /* RoundingHalfSum */
    const int32_t c48_17 = 1515870810, cm32_17 = -1010580540, one2 = (int32_t)1 << 29;
    int32_t x = c48_17 + accel__tfl_srdhm(half, cm32_17);
    int i;
    for (i = 0; i < 3; i++) {
        int32_t hx = accel__tfl_srdhm(half, x);
        int32_t one_minus = one2 - hx;
        x = x + accel__tfl_sat_shl(accel__tfl_srdhm(x, one_minus), 2);
    }
    return accel__tfl_sat_shl(x, 1); /* ExactMulByPot<-1> keeps the raw value: Q2 -> Q1, then Q0 */
}

ACCEL__TFL_STATIC int accel__tfl_clz32(uint32_t x)
{
    int n = 0;
    if (x == 0) return 32;
    while (!(x & 0x80000000UL)) {
        x <<= 1;
        n++;
    }
    return n;
}

ACCEL__TFL_STATIC accel_status accel__tfl_softmax(accel__tfl_ctx *c)
{
    accel__tfl_io in, out;
    uint64_t beta_bits;
    int32_t mult, shift, diff_min, lo = 0, hi = 0, *kept;
    uint32_t depth, outer, i, k;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(INT16), &out);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 0, 4, 0, &beta_bits);
    if (st != ACCEL_OK) return st;
    if (in.t.ndims < 1 || in.t.elements != out.t.elements) return ACCEL_E_TFLITE_SHAPE;
    if (accel__tfl_quantized(&in.t) || accel__tfl_quantized(&out.t)) return ACCEL_E_TFLITE_QUANT;
    /* TFLM's fixed output quantization: int8 zp -128 scale 1/256, int16 zp -32768 scale 1/65536 */
    if (out.t.type == ACCEL_TFLITE_INT8 ? (out.t.zero_point != -128 || out.t.scale_bits != 0x3B800000UL)
                                        : (out.t.zero_point != -32768 || out.t.scale_bits < 0x377FBE77UL ||
                                           out.t.scale_bits > 0x378020C5UL)) /* 1/65536 within 0.1% */
        return ACCEL_E_TFLITE_QUANT;
    depth = accel__tfl_dim(&in.t, in.t.ndims - 1u);
    if (depth == 0) return ACCEL_OK;
    outer = (uint32_t)(in.t.elements / depth);
    kept = accel__tfl_keep(c, 3);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        mult = kept[0];
        shift = kept[1];
        diff_min = kept[2];
    } else {
        /* PreprocessSoftmaxScaling with 5 integer bits, then CalculateInputRadius */
        accel__tfl_num real;
        if (((uint32_t)beta_bits & 0x80000000UL) || ((uint32_t)beta_bits & 0x7F800000UL) == 0x7F800000UL)
            return ACCEL_E_TFLITE_OPTIONS; /* beta: finite, not negative */
        real = accel__tfl_num_mul(accel__tfl_num_f32((uint32_t)beta_bits), accel__tfl_num_f32(in.t.scale_bits));
        real.e += 26;
        if (accel__tfl_num_floor(real, INT32_MAX) == INT32_MAX) real.m = 2147483647u, real.e = 0; /* min(., 2^31-1) */
        st = accel__tfl_qmul(real, &mult, &shift);
        if (st != ACCEL_OK) return st;
        if (shift < 0) return ACCEL_E_TFLITE_QUANT; /* QuantizeMultiplierGreaterThanOne */
        diff_min = -(int32_t)(((int32_t)31 << 26) >> shift); /* CalculateInputRadius: floor */
        if (kept) {
            kept[0] = mult;
            kept[1] = shift;
            kept[2] = diff_min;
        }
        return ACCEL_OK;
    }
    accel__tfl_qrange(out.t.type, &lo, &hi);
    for (i = 0; i < outer; i++) {
        const int8_t *row = (const int8_t *)(const void *)(in.in + (size_t)i * depth);
        int32_t maxv = -128, sum = 0, recip;
        int bits_over, exponent;
        for (k = 0; k < depth; k++)
            if (row[k] > maxv) maxv = row[k];
        for (k = 0; k < depth; k++) {
            int32_t diff = (int32_t)row[k] - maxv;
            if (diff >= diff_min) {
                int32_t e = accel__tfl_exp_neg(accel__tfl_srdhm(accel__tfl_s32((uint32_t)diff << shift), mult));
                sum += accel__tfl_rdbpot(e, 12);
            }
        }
        {
            int head = accel__tfl_clz32((uint32_t)sum);
            bits_over = 12 - head;
            recip = accel__tfl_recip((int32_t)(((uint32_t)sum << head) - 0x80000000UL));
        }
        exponent = bits_over + 31 - (out.t.type == ACCEL_TFLITE_INT8 ? 8 : 16);
        if (exponent < 0 || exponent > 31) return ACCEL_E_TFLITE_QUANT;
        for (k = 0; k < depth; k++) {
            int32_t diff = (int32_t)row[k] - maxv, v = lo;
            if (diff >= diff_min) {
                int32_t e = accel__tfl_exp_neg(accel__tfl_srdhm(accel__tfl_s32((uint32_t)diff << shift), mult));
                v = accel__tfl_rdbpot(accel__tfl_srdhm(recip, e), exponent) + lo;
                if (v > hi) v = hi;
                if (v < lo) v = lo;
            }
            if (out.t.type == ACCEL_TFLITE_INT8) out.out[(size_t)i * depth + k] = (uint8_t)(v & 0xFF);
            else accel_store_u16le(out.out + 2u * ((size_t)i * depth + k), (uint16_t)(v & 0xFFFF));
        }
    }
    return ACCEL_OK;
}

/* Element i of an integer tensor as int32. */
ACCEL__TFL_STATIC int32_t accel__tfl_load(int type, const uint8_t *p, size_t i)
{
    switch (type) {
    case ACCEL_TFLITE_INT8: return p[i] >= 128u ? (int32_t)p[i] - 256 : (int32_t)p[i];
    case ACCEL_TFLITE_UINT8: return (int32_t)p[i];
    case ACCEL_TFLITE_INT16: {
        uint16_t u = accel_load_u16le(p + 2u * i);
        return u >= 0x8000u ? (int32_t)u - (int32_t)65536L : (int32_t)u;
    }
    default: return accel__tfl_s32(accel_load_u32le(p + 4u * (size_t)i));
    }
}

ACCEL__TFL_STATIC void accel__tfl_store(int type, uint8_t *p, size_t i, int32_t v)
{
    switch (type) {
    case ACCEL_TFLITE_INT8: case ACCEL_TFLITE_UINT8: p[i] = (uint8_t)(v & 0xFF); break;
    case ACCEL_TFLITE_INT16: accel_store_u16le(p + 2u * i, (uint16_t)(v & 0xFFFF)); break;
    default: accel_store_u32le(p + 4u * i, (uint32_t)v); break;
    }
}

ACCEL__TFL_STATIC accel_status accel__tfl_quantize(accel__tfl_ctx *c)
{
    const uint32_t ints = ACCEL__TFL_T(INT8) | ACCEL__TFL_T(UINT8) | ACCEL__TFL_T(INT16) | ACCEL__TFL_T(INT32);
    accel__tfl_io in, out;
    int32_t mult, shift, lo = 0, hi = 0, *kept;
    size_t i;
    accel_status st = accel__tfl_need(c, 0, 0, ints, &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ints, &out);
    if (st != ACCEL_OK) return st;
    if (in.t.elements != out.t.elements) return ACCEL_E_TFLITE_SHAPE;
    if (accel__tfl_quantized(&in.t) || accel__tfl_quantized(&out.t) || out.t.n_scales != 1u)
        return ACCEL_E_TFLITE_QUANT;
    /* the pairs TFLM's reference QUANTIZE runs */
    if ((in.t.type == ACCEL_TFLITE_UINT8 && out.t.type != ACCEL_TFLITE_INT8) ||
        (in.t.type == ACCEL_TFLITE_INT32 && out.t.type != ACCEL_TFLITE_INT8 && out.t.type != ACCEL_TFLITE_INT16) ||
        (in.t.type == ACCEL_TFLITE_INT16 && out.t.type == ACCEL_TFLITE_UINT8))
        return ACCEL_E_UNSUPPORTED;
    kept = accel__tfl_keep(c, 2);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        mult = kept[0];
        shift = kept[1];
    } else {
        st = accel__tfl_qmul(accel__tfl_num_div(accel__tfl_num_f32(in.t.scale_bits), accel__tfl_num_f32(out.t.scale_bits), 53),
                             &mult, &shift);
        if (st == ACCEL_OK && kept) {
            kept[0] = mult;
            kept[1] = shift;
        }
        return st;
    }
    accel__tfl_qrange(out.t.type, &lo, &hi);
    for (i = 0; i < in.t.elements; i++) {
        int32_t v = accel_mac_multiply_by_quantized_multiplier(accel__tfl_load(in.t.type, in.in, i) - in.t.zero_point,
                                                               mult, shift) + out.t.zero_point;
        accel__tfl_store(out.t.type, out.out, i, v < lo ? lo : v > hi ? hi : v);
    }
    return ACCEL_OK;
}

ACCEL__TFL_STATIC accel_status accel__tfl_reshape(accel__tfl_ctx *c)
{
    accel__tfl_io in, out;
    accel_status st = accel__tfl_need(c, 0, 0, 0xFFFFFFFFUL, &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, 0xFFFFFFFFUL, &out);
    if (st != ACCEL_OK) return st;
    if (in.t.type != out.t.type) return ACCEL_E_TFLITE_TYPE;
    if (in.t.bytes != out.t.bytes) return ACCEL_E_TFLITE_SHAPE;
    if (c->rt && in.t.bytes && out.out != in.in) ACCEL_MEMCPY(out.out, in.in, in.t.bytes);
    return ACCEL_OK;
}

ACCEL__TFL_STATIC accel_status accel__tfl_concat(accel__tfl_ctx *c)
{
    accel__tfl_io in, out;
    int32_t axis;
    uint64_t act;
    uint32_t k, d, n = c->op.n_inputs, ax;
    uint64_t outer = 1, inner_out = 1, sum = 0;
    size_t es, done = 0;
    accel_status st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(UINT8) | ACCEL__TFL_T(INT16) |
                                                    ACCEL__TFL_T(INT32), &out);
    if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 0, 0, &axis);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 1, 1, 0, &act);
    if (st != ACCEL_OK) return st;
    if (act != 0) return ACCEL_E_UNSUPPORTED;
    if (axis < 0) axis += (int32_t)out.t.ndims;
    if (axis < 0 || (uint32_t)axis >= out.t.ndims || n == 0) return ACCEL_E_TFLITE_SHAPE;
    ax = (uint32_t)axis;
    es = accel__tfl_type_size(out.t.type);
    for (d = 0; d < ax; d++) outer *= accel__tfl_dim(&out.t, d);
    for (d = ax; d < out.t.ndims; d++) inner_out *= accel__tfl_dim(&out.t, d);
    /* validate every input first: same type and quantization, same dims but the axis */
    for (k = 0; k < n; k++) {
        st = accel__tfl_need(c, 0, k, (uint32_t)1 << out.t.type, &in);
        if (st != ACCEL_OK) return st == ACCEL_E_UNSUPPORTED ? ACCEL_E_TFLITE_TYPE : st;
        if (in.t.ndims != out.t.ndims) return ACCEL_E_TFLITE_SHAPE;
        for (d = 0; d < out.t.ndims; d++)
            if (d != ax && in.t.dims[d] != out.t.dims[d]) return ACCEL_E_TFLITE_SHAPE;
        if (out.t.type != ACCEL_TFLITE_INT32 &&
            (in.t.scale_bits != out.t.scale_bits || in.t.zero_point != out.t.zero_point))
            return ACCEL_E_TFLITE_QUANT;
        sum += accel__tfl_dim(&in.t, ax);
    }
    if (sum != accel__tfl_dim(&out.t, ax)) return ACCEL_E_TFLITE_SHAPE;
    if (!c->rt) return ACCEL_OK;
    for (k = 0; k < n; k++) {
        uint64_t o;
        size_t chunk;
        st = accel__tfl_need(c, 0, k, (uint32_t)1 << out.t.type, &in);
        if (st != ACCEL_OK) return st;
        chunk = outer ? in.t.bytes / (size_t)outer : 0;
        for (o = 0; o < outer; o++)
            ACCEL_MEMCPY(out.out + (size_t)o * (size_t)inner_out * es + done, in.in + (size_t)o * chunk, chunk);
        done += chunk;
    }
    return ACCEL_OK;
}

/* ADD and MUL: int8, the shapes equal or broadcast (up to 4-D, right-aligned). */
ACCEL__TFL_STATIC accel_status accel__tfl_binary(accel__tfl_ctx *c, int is_mul)
{
    accel__tfl_io a, b, out;
    uint64_t act;
    int32_t mn, mx, m1 = 0, s1 = 0, m2 = 0, s2 = 0, mo = 0, so = 0, *kept;
    uint32_t da[4], db[4], dout[4], sa[4], sb[4], k, i0, i1, i2, i3;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &a);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 1, ACCEL__TFL_T(INT8), &b);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8), &out);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 0, 1, 0, &act);
    if (st != ACCEL_OK) return st;
    if (a.t.ndims > 4 || b.t.ndims > 4 || out.t.ndims > 4) return ACCEL_E_UNSUPPORTED;
    if (accel__tfl_quantized(&a.t) || accel__tfl_quantized(&b.t) || accel__tfl_quantized(&out.t))
        return ACCEL_E_TFLITE_QUANT;
    for (k = 0; k < 4; k++) {
        uint32_t x = k + a.t.ndims >= 4 ? accel__tfl_dim(&a.t, k + a.t.ndims - 4u) : 1u;
        uint32_t y = k + b.t.ndims >= 4 ? accel__tfl_dim(&b.t, k + b.t.ndims - 4u) : 1u;
        uint32_t z = k + out.t.ndims >= 4 ? accel__tfl_dim(&out.t, k + out.t.ndims - 4u) : 1u;
        if ((x != z && x != 1u) || (y != z && y != 1u) || (x != z && y != z)) return ACCEL_E_TFLITE_SHAPE;
        da[k] = x;
        db[k] = y;
        dout[k] = z;
    }
    /* strides, 0 along a broadcast dimension */
    sa[3] = da[3] == 1u ? 0u : 1u;
    sb[3] = db[3] == 1u ? 0u : 1u;
    {
        uint32_t pa = da[3], pb = db[3];
        for (k = 3; k-- > 0;) {
            sa[k] = da[k] == 1u ? 0u : pa;
            sb[k] = db[k] == 1u ? 0u : pb;
            pa *= da[k];
            pb *= db[k];
        }
    }
    kept = accel__tfl_keep(c, 8);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        mn = kept[0], mx = kept[1], m1 = kept[2], s1 = kept[3], m2 = kept[4], s2 = kept[5], mo = kept[6];
        so = kept[7];
    } else {
        st = accel__tfl_act(act, &out.t, &mn, &mx);
        if (st != ACCEL_OK) return st;
        if (is_mul) {
            st = accel__tfl_qmul(accel__tfl_scale3(a.t.scale_bits, b.t.scale_bits, out.t.scale_bits), &mo, &so);
        } else {
            /* twice the larger input scale (positive floats order as their bits); 2^20 x output */
            accel__tfl_num twice = accel__tfl_num_f32(a.t.scale_bits > b.t.scale_bits ? a.t.scale_bits : b.t.scale_bits);
            accel__tfl_num o20 = accel__tfl_num_f32(out.t.scale_bits);
            twice.e += 1;
            o20.e += 20;
            st = accel__tfl_qmul(accel__tfl_num_div(accel__tfl_num_f32(a.t.scale_bits), twice, 53), &m1, &s1);
            if (st == ACCEL_OK)
                st = accel__tfl_qmul(accel__tfl_num_div(accel__tfl_num_f32(b.t.scale_bits), twice, 53), &m2, &s2);
            if (st == ACCEL_OK) st = accel__tfl_qmul(accel__tfl_num_div(twice, o20, 53), &mo, &so);
        }
        if (st == ACCEL_OK && kept) {
            kept[0] = mn, kept[1] = mx, kept[2] = m1, kept[3] = s1, kept[4] = m2, kept[5] = s2, kept[6] = mo;
            kept[7] = so;
        }
        return st;
    }
    for (i0 = 0; i0 < dout[0]; i0++)
        for (i1 = 0; i1 < dout[1]; i1++)
            for (i2 = 0; i2 < dout[2]; i2++)
                for (i3 = 0; i3 < dout[3]; i3++) {
                    size_t ia = (size_t)i0 * (size_t)sa[0] + (size_t)i1 * (size_t)sa[1] + (size_t)i2 * (size_t)sa[2] +
                                (size_t)i3 * (size_t)sa[3];
                    size_t ib = (size_t)i0 * (size_t)sb[0] + (size_t)i1 * (size_t)sb[1] + (size_t)i2 * (size_t)sb[2] +
                                (size_t)i3 * (size_t)sb[3];
                    size_t io = (((size_t)i0 * (size_t)dout[1] + (size_t)i1) * (size_t)dout[2] + (size_t)i2) * (size_t)dout[3] +
                                (size_t)i3;
                    int32_t x = accel__tfl_load(ACCEL_TFLITE_INT8, a.in, ia) - a.t.zero_point;
                    int32_t y = accel__tfl_load(ACCEL_TFLITE_INT8, b.in, ib) - b.t.zero_point;
                    int32_t v;
                    if (is_mul) {
                        v = accel_mac_multiply_by_quantized_multiplier(x * y, mo, so);
                    } else {
                        int32_t sx = accel_mac_multiply_by_quantized_multiplier(x * ((int32_t)1 << 20), m1, s1);
                        int32_t sy = accel_mac_multiply_by_quantized_multiplier(y * ((int32_t)1 << 20), m2, s2);
                        v = accel_mac_multiply_by_quantized_multiplier(sx + sy, mo, so);
                    }
                    v += out.t.zero_point;
                    accel__tfl_store(ACCEL_TFLITE_INT8, out.out, io, v < mn ? mn : v > mx ? mx : v);
                }
    return ACCEL_OK;
}

#ifndef ACCEL_MAC_NO_FLOAT
ACCEL__TFL_STATIC accel_status accel__tfl_dequantize(accel__tfl_ctx *c)
{
    accel__tfl_io in, out;
    size_t i;
    double scale;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(UINT8) | ACCEL__TFL_T(INT16), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(FLOAT32), &out);
    if (st != ACCEL_OK) return st;
    if (in.t.elements != out.t.elements) return ACCEL_E_TFLITE_SHAPE;
    if (accel__tfl_quantized(&in.t)) return ACCEL_E_TFLITE_QUANT;
    if (!c->rt) return ACCEL_OK;
    {
        float f;
        ACCEL_MEMCPY(&f, &in.t.scale_bits, 4);
        scale = (double)f;
    }
    for (i = 0; i < in.t.elements; i++) {
        float f = (float)(scale * (double)(accel__tfl_load(in.t.type, in.in, i) - in.t.zero_point));
        uint32_t bits;
        ACCEL_MEMCPY(&bits, &f, 4);
        accel_store_u32le(out.out + 4u * i, bits);
    }
    return ACCEL_OK;
}
#endif

/* SVDF, integer (TFLM's EvalIntegerSvdfReference): the state [batch, filters * memory] shifts by
 * one (the whole buffer, as TFLM does), the newest column gets the feature dot products, the
 * time weights reduce each filter's memory, rank filters sum into a unit. No fused activation
 * on this path (TFLM applies none). */
ACCEL__TFL_STATIC accel_status accel__tfl_svdf(accel__tfl_ctx *c)
{
    accel__tfl_io in, wf, wt, bias, state, out;
    int32_t rank, m1, s1, m2, s2, *kept;
    uint32_t batch, n_in, filters, units, memory;
    int32_t *scr, *acc;
    size_t used = 0;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 1, ACCEL__TFL_T(INT8), &wf);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 2, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(INT16), &wt);
    if (st == ACCEL_OK) st = accel__tfl_get(c, 0, 3, &bias);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 4, ACCEL__TFL_T(INT8) | ACCEL__TFL_T(INT16), &state);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8), &out);
    if (st == ACCEL_OK) st = accel__tfl_opt_i32(c, 0, 0, &rank);
    if (st != ACCEL_OK) return st;
    if (wt.t.type != state.t.type) return ACCEL_E_TFLITE_TYPE;
    if (!state.t.is_variable) return ACCEL_E_TFLITE_GRAPH;
    if (rank <= 0) return ACCEL_E_TFLITE_OPTIONS;
    if (in.t.ndims != 2 || wf.t.ndims != 2 || wt.t.ndims != 2 || state.t.ndims != 2 || out.t.ndims != 2)
        return ACCEL_E_TFLITE_SHAPE;
    batch = accel__tfl_dim(&in.t, 0);
    n_in = accel__tfl_dim(&in.t, 1);
    filters = accel__tfl_dim(&wf.t, 0);
    memory = accel__tfl_dim(&wt.t, 1);
    if (filters % (uint32_t)rank != 0 || accel__tfl_dim(&wf.t, 1) != n_in || accel__tfl_dim(&wt.t, 0) != filters ||
        memory == 0)
        return ACCEL_E_TFLITE_SHAPE;
    units = filters / (uint32_t)rank;
    if (accel__tfl_dim(&out.t, 0) != batch || accel__tfl_dim(&out.t, 1) != units ||
        accel__tfl_dim(&state.t, 0) != batch || (uint64_t)accel__tfl_dim(&state.t, 1) != (uint64_t)memory * filters)
        return ACCEL_E_TFLITE_SHAPE;
    if (bias.index >= 0 && (bias.t.type != ACCEL_TFLITE_INT32 || bias.t.elements != units))
        return ACCEL_E_TFLITE_SHAPE;
    if (accel__tfl_quantized(&in.t) || accel__tfl_quantized(&wf.t) || accel__tfl_quantized(&wt.t) ||
        accel__tfl_quantized(&state.t) || accel__tfl_quantized(&out.t))
        return ACCEL_E_TFLITE_QUANT;
    if ((uint64_t)batch * filters > 0x3FFFFFFFUL || (uint64_t)batch * units > 0x3FFFFFFFUL) return ACCEL_E_TFLITE_SHAPE;
    kept = accel__tfl_keep(c, 4);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        m1 = kept[0], s1 = kept[1], m2 = kept[2], s2 = kept[3];
    } else {
        /* TFLM forms these products and quotients in float (24 bits each), then widens */
        accel__tfl_num e1 = accel__tfl_num_round(accel__tfl_num_mul(accel__tfl_num_f32(in.t.scale_bits),
                                                                    accel__tfl_num_f32(wf.t.scale_bits)), 0, 24);
        accel__tfl_num e2 = accel__tfl_num_round(accel__tfl_num_mul(accel__tfl_num_f32(state.t.scale_bits),
                                                                    accel__tfl_num_f32(wt.t.scale_bits)), 0, 24);
        e1 = accel__tfl_num_div(e1, accel__tfl_num_f32(state.t.scale_bits), 24);
        e2 = accel__tfl_num_div(e2, accel__tfl_num_f32(out.t.scale_bits), 24);
        st = accel__tfl_qmul(e1, &m1, &s1);
        if (st == ACCEL_OK) st = accel__tfl_qmul(e2, &m2, &s2);
        if (st != ACCEL_OK) return st;
        if (kept) kept[0] = m1, kept[1] = s1, kept[2] = m2, kept[3] = s2;
    }
    scr = (int32_t *)(void *)accel__tfl_take(c, &used, 4u * (size_t)batch * (size_t)filters);
    acc = (int32_t *)(void *)accel__tfl_take(c, &used, 4u * (size_t)batch * (size_t)units);
    if (!c->rt) return ACCEL_OK;
    if (!scr || !acc) return ACCEL_E_STATE;
    {
        uint32_t b, r, k;
        int st_type = state.t.type;
        int32_t lo = st_type == ACCEL_TFLITE_INT8 ? -128 : -32768, hi = st_type == ACCEL_TFLITE_INT8 ? 127 : 32767;
        size_t es = accel__tfl_type_size(st_type), total = state.t.elements;
        for (k = 0; k + 1u < (uint32_t)total; k++) /* shift down by one element, in place */
            ACCEL_MEMCPY(state.out + (size_t)k * es, state.out + (size_t)(k + 1u) * es, es);
        for (b = 0; b < batch; b++)
            for (r = 0; r < filters; r++) {
                uint32_t sum = 0; /* int32 sums wrap, as they do in TFLM's build */
                int32_t dot;
                for (k = 0; k < n_in; k++)
                    sum += (uint32_t)(accel__tfl_load(ACCEL_TFLITE_INT8, wf.in, (size_t)r * (size_t)n_in + (size_t)k) *
                                      (accel__tfl_load(ACCEL_TFLITE_INT8, in.in, (size_t)b * (size_t)n_in + (size_t)k) -
                                       in.t.zero_point));
                dot = accel_mac_multiply_by_quantized_multiplier(accel__tfl_s32(sum), m1, s1);
                dot = dot < lo ? lo : dot > hi ? hi : dot;
                accel__tfl_store(st_type, state.out, ((size_t)b * (size_t)filters + (size_t)r) * (size_t)memory + (size_t)memory - 1u,
                                 state.t.zero_point + dot);
            }
        for (b = 0; b < batch; b++)
            for (r = 0; r < filters; r++) {
                uint32_t sum = 0;
                for (k = 0; k < memory; k++)
                    sum += (uint32_t)(accel__tfl_load(st_type, wt.in, (size_t)r * (size_t)memory + (size_t)k) *
                                      (accel__tfl_load(st_type, state.out, ((size_t)b * (size_t)filters + (size_t)r) * (size_t)memory + (size_t)k) -
                                       state.t.zero_point));
                scr[(size_t)b * filters + r] = accel__tfl_s32(sum);
            }
        for (b = 0; b < batch; b++)
            for (k = 0; k < units; k++) {
                uint32_t sum = bias.index >= 0 ? accel_load_u32le(bias.in + 4u * (size_t)k) : 0u;
                int32_t v;
                for (r = 0; r < (uint32_t)rank; r++)
                    sum += (uint32_t)scr[(size_t)b * filters + (size_t)k * (uint32_t)rank + r];
                v = accel_mac_multiply_by_quantized_multiplier(accel__tfl_s32(sum), m2, s2) + out.t.zero_point;
                out.out[(size_t)b * units + k] = (uint8_t)((v < -128 ? -128 : v > 127 ? 127 : v) & 0xFF);
            }
    }
    return ACCEL_OK;
}

/* ---- @tflite.ops: int16 sigmoid and tanh of TFLite's integer kernels: linear interpolation in a table of
 * sigmoid(i / 24) in 0.16 format (tanh(x) = 2 sigmoid(2x) - 1). The values are TFLite's own
 * (its sigmoid_table_uint16): they are not a plain rounding of the formula, and bit-exactness
 * needs them as they are. */
ACCEL__TFL_STATIC uint16_t accel__tfl_sigmoid_table(uint32_t i)
{
    static const uint16_t t[256] = {
        32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
        40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
        47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
        53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
        57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
        60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
        62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
        63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
        64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
        64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
        65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
        65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
        65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
        65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
        65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
        65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
        65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
        65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
        65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
        65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
        65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
        65534, 65534, 65534, 65535
    };
    return t[i & 0xFFu];
}

/* reference_integer_ops::Logistic for int16 (input_multiplier 0 means 3 << shift). */
ACCEL__TFL_STATIC int16_t accel__tfl_sigmoid16(int16_t x, int32_t mult, int32_t shift)
{
    int32_t in, round;
    uint32_t a, uh, r;
    if (mult == 0) {
        mult = 3 * ((int32_t)1 << shift);
        shift = 0;
    }
    round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    in = (x * mult + round) >> shift;
    a = in < 0 ? (uint32_t)0 - (uint32_t)in : (uint32_t)in;
    uh = a >> 9;
    if (uh >= 255u) {
        r = 0x7FFFUL << 10;
    } else {
        uint32_t ua = accel__tfl_sigmoid_table(uh), ub = accel__tfl_sigmoid_table(uh + 1u);
        r = (ua << 9) + (a & 0x1FFu) * (ub - ua);
    }
    r = in >= 0 ? r + (1UL << 9) : (1UL << 25) - r + (1UL << 9) - 1u;
    return (int16_t)(int32_t)(uint16_t)((r >> 10) & 0xFFFFu);
}

/* reference_integer_ops::Tanh for int16. */
ACCEL__TFL_STATIC int16_t accel__tfl_tanh16(int16_t x, int32_t mult, int32_t shift)
{
    int32_t in, round, r;
    uint32_t a, uh;
    if (mult == 0) {
        mult = 3 * ((int32_t)1 << shift);
        shift = 0;
    }
    round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    in = (x * mult + round) >> shift;
    a = in < 0 ? (uint32_t)0 - (uint32_t)in : (uint32_t)in;
    uh = a >> 8;
    if (uh >= 255u) {
        r = (int32_t)(0xFFFFL << 8);
    } else {
        uint32_t ua = accel__tfl_sigmoid_table(uh), ub = accel__tfl_sigmoid_table(uh + 1u);
        r = (int32_t)((ua << 8) + (a & 0xFFu) * (ub - ua));
    }
    r = in >= 0 ? r - ((int32_t)1 << 23) + ((int32_t)1 << 7) : -r + ((int32_t)1 << 23) + ((int32_t)1 << 7) - 1;
    r >>= 8;
    return (int16_t)(r < -32768 ? -32768 : r > 32767 ? 32767 : r); /* r fits: the table is monotone */
}

/* The power of two nearest to a float scale (TFLite's CheckedLog2 rounding), from its bits. */
ACCEL__TFL_STATIC int32_t accel__tfl_log2_round(uint32_t bits)
{
    int32_t e = (int32_t)((bits >> 23) & 0xFFu) - 127;
    return (bits & 0x7FFFFFUL) >= 0x3504F3UL ? e + 1 : e; /* mantissa >= sqrt(2) rounds up */
}

/* exp_on_negative_values for a Q(ib).(31-ib) input (ib 4 or 5), Q0.31 result. */
ACCEL__TFL_STATIC int32_t accel__tfl_exp_neg_q(int32_t a, int ib)
{
    static const int32_t mults[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
    const int frac = 31 - ib;
    const int32_t quarter = (int32_t)1 << (frac - 2);
    int32_t mod = (a & (quarter - 1)) - quarter;
    int32_t result = accel__tfl_exp_quarter(accel__tfl_sat_shl(mod, ib));
    int32_t remainder = mod - a;
    int k;
    for (k = 0; k < ib + 2 && k < 7; k++)
        if (remainder & ((int32_t)1 << (frac - 2 + k))) result = accel__tfl_srdhm(result, mults[k]);
    if (a == 0) result = INT32_MAX;
    return result;
}

/* gemmlowp::logistic of a Q4.27 value, Q0.31 result. */
ACCEL__TFL_STATIC int32_t accel__tfl_logistic_q4(int32_t a)
{
    int32_t absv, pos;
    if (a == 0) return (int32_t)1 << 30;
    absv = a > 0 ? a : -a;
    pos = accel__tfl_recip(accel__tfl_exp_neg_q(-absv, 4));
    return a > 0 ? pos : INT32_MAX - pos;
}

/* LOGISTIC, int8 (output zero point -128, as TFLM requires). */
ACCEL__TFL_STATIC accel_status accel__tfl_logistic(accel__tfl_ctx *c)
{
    accel__tfl_io in, out;
    int32_t e = 0, mult, radius_i, *kept;
    size_t i;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &in);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8), &out);
    if (st != ACCEL_OK) return st;
    if (in.t.elements != out.t.elements) return ACCEL_E_TFLITE_SHAPE;
    if (accel__tfl_quantized(&in.t) || out.t.zero_point != -128) return ACCEL_E_TFLITE_QUANT;
    kept = accel__tfl_keep(c, 3);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        mult = kept[0], e = kept[1], radius_i = kept[2];
    } else {
        /* frexp of scale * 2^27, its fraction rounded to 31 bits (no renormalisation: TFLM's) */
        accel__tfl_num x = accel__tfl_num_f32(in.t.scale_bits);
        uint64_t t;
        if (!x.m) return ACCEL_E_TFLITE_QUANT;
        while (x.m < ((uint64_t)1 << 52)) {
            x.m <<= 1;
            x.e--;
        }
        e = x.e + 27 + 53;
        if (e < 0 || e > 30) return ACCEL_E_UNSUPPORTED;
        t = (x.m + ((uint64_t)1 << 21)) >> 22;
        mult = t >= ((uint64_t)1 << 31) ? INT32_MIN : (int32_t)t;
        radius_i = ((int32_t)15 << 27) >> e; /* CalculateInputRadius(4, e): floor */
        if (kept) kept[0] = mult, kept[1] = e, kept[2] = radius_i;
        return ACCEL_OK;
    }
    for (i = 0; i < in.t.elements; i++) {
        int32_t x = accel__tfl_load(ACCEL_TFLITE_INT8, in.in, i) - in.t.zero_point, v;
        if (x <= -radius_i) {
            v = -128;
        } else if (x >= radius_i) {
            v = 127;
        } else {
            v = accel__tfl_rdbpot(accel__tfl_logistic_q4(accel_mac_multiply_by_quantized_multiplier(x, mult, e)), 23);
            v = v - 128 < -128 ? -128 : v - 128 > 127 ? 127 : v - 128;
        }
        out.out[i] = (uint8_t)(v & 0xFF);
    }
    return ACCEL_OK;
}

/* UNIDIRECTIONAL_SEQUENCE_LSTM, integer (TFLM's EvalLstm<int8, int8, int16, int32>): int8 input
 * and hidden state, int16 cell state, int8 weights, int32 biases, no peepholes, projection or
 * layer norm. Gates: FC(input) + FC(hidden) in Q3.12, sigmoid (tanh for the cell gate) to
 * Q0.15; cell = forget * cell + input * cell_gate; hidden = output * tanh(cell). */
#define ACCEL__TFL_LSTM_IN 24u
typedef struct accel__tfl_gate {
    int32_t in_mult, in_shift, rec_mult, rec_shift;
} accel__tfl_gate;

ACCEL__TFL_STATIC accel_status accel__tfl_lstm_fc(const accel__tfl_io *x, size_t x_off, uint32_t rows, uint32_t depth,
                                       const accel__tfl_io *w, const accel__tfl_io *bias, uint32_t units,
                                       int32_t mult, int32_t shift, int32_t *acc, int16_t *out)
{
    uint32_t r, u;
    accel_status st = accel_mac_matmul_s32(ACCEL_MAC_INT8, rows, units, depth, x->in + x_off,
                                           (size_t)rows * (size_t)depth, -x->t.zero_point, w->in, w->t.bytes,
                                           -w->t.zero_point, acc, (size_t)rows * (size_t)units);
    if (st != ACCEL_OK) return st;
    for (r = 0; r < rows; r++)
        for (u = 0; u < units; u++) {
            uint32_t s = (uint32_t)acc[(size_t)r * units + u];
            int32_t v;
            if (bias && bias->index >= 0) s += accel_load_u32le(bias->in + 4u * (size_t)u);
            v = accel_mac_multiply_by_quantized_multiplier(accel__tfl_s32(s), mult, shift);
            out[(size_t)r * units + u] = (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
        }
    return ACCEL_OK;
}

ACCEL__TFL_STATIC int16_t accel__tfl_mul16(int32_t a, int32_t b, int32_t mult, int32_t shift, int32_t zp, int32_t lo,
                                int32_t hi)
{
    int32_t v = zp + accel_mac_multiply_by_quantized_multiplier(a * b, mult, shift);
    return (int16_t)(v < lo ? lo : v > hi ? hi : v);
}

ACCEL__TFL_STATIC accel_status accel__tfl_lstm(accel__tfl_ctx *c)
{
    accel__tfl_io x, w[8], bias[4], hid, cell, out, opt;
    accel__tfl_gate g[4];
    uint64_t act, tm;
    uint64_t clip_bits;
    uint32_t batch, steps, n_in, n_state, k, rows, b, t, j;
    int32_t fm, fs, im, is, om, os, cell_pow, tanh_mult = 0, tanh_shift, hlo, hhi;
    int32_t qclip = 0, *kept;
    int16_t *buf[4];
    int32_t *acc;
    size_t used = 0, n;
    accel_status st = accel__tfl_need(c, 0, 0, ACCEL__TFL_T(INT8), &x);
    if (st == ACCEL_OK && c->op.n_inputs != ACCEL__TFL_LSTM_IN) st = ACCEL_E_TFLITE_ARITY;
    for (k = 0; k < 8 && st == ACCEL_OK; k++) st = accel__tfl_need(c, 0, 1u + k, ACCEL__TFL_T(INT8), &w[k]);
    for (k = 0; k < 4 && st == ACCEL_OK; k++) st = accel__tfl_need(c, 0, 12u + k, ACCEL__TFL_T(INT32), &bias[k]);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 18, ACCEL__TFL_T(INT8), &hid);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 0, 19, ACCEL__TFL_T(INT16), &cell);
    if (st == ACCEL_OK) st = accel__tfl_need(c, 1, 0, ACCEL__TFL_T(INT8), &out);
    /* peepholes (9-11), projection (16-17) and layer norm (20-23) are not implemented */
    for (k = 9; k < ACCEL__TFL_LSTM_IN && st == ACCEL_OK; k++) {
        if (k == 12) k = 16;
        if (k == 18) k = 20;
        st = accel__tfl_get(c, 0, k, &opt);
        if (st == ACCEL_OK && opt.index >= 0) st = ACCEL_E_UNSUPPORTED;
    }
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 0, 1, 0, &act);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 1, 4, 0, &clip_bits);
    if (st == ACCEL_OK) st = accel__tfl_opt(c, 3, 1, 0, &tm);
    if (st != ACCEL_OK) return st;
    if (act != 4) return ACCEL_E_UNSUPPORTED; /* the cell gate's tanh */
    if (!hid.t.is_variable || !cell.t.is_variable) return ACCEL_E_TFLITE_GRAPH;
    if (x.t.ndims != 3 || out.t.ndims != 3 || hid.t.ndims != 2) return ACCEL_E_TFLITE_SHAPE;
    batch = accel__tfl_dim(&x.t, tm ? 1u : 0u);
    steps = accel__tfl_dim(&x.t, tm ? 0u : 1u);
    n_in = accel__tfl_dim(&x.t, 2);
    n_state = accel__tfl_dim(&hid.t, 1);
    for (k = 0; k < 8; k++)
        if (w[k].t.ndims != 2 || accel__tfl_dim(&w[k].t, 0) != n_state ||
            accel__tfl_dim(&w[k].t, 1) != (k < 4 ? n_in : n_state) || w[k].t.n_scales != 1u)
            return w[k].t.n_scales > 1u ? ACCEL_E_UNSUPPORTED : ACCEL_E_TFLITE_SHAPE;
    for (k = 0; k < 4; k++)
        if (bias[k].t.ndims != 1 || accel__tfl_dim(&bias[k].t, 0) != n_state) return ACCEL_E_TFLITE_SHAPE;
    if ((uint64_t)batch * n_state != hid.t.elements || (uint64_t)batch * n_state != cell.t.elements ||
        accel__tfl_dim(&out.t, 0) != accel__tfl_dim(&x.t, 0) || accel__tfl_dim(&out.t, 1) != accel__tfl_dim(&x.t, 1) ||
        accel__tfl_dim(&out.t, 2) != n_state || n_in == 0 || n_state == 0)
        return ACCEL_E_TFLITE_SHAPE;
    if (accel__tfl_quantized(&x.t) || accel__tfl_quantized(&hid.t) || accel__tfl_quantized(&cell.t) ||
        cell.t.zero_point != 0)
        return ACCEL_E_TFLITE_QUANT;
    for (k = 0; k < 8; k++)
        if (accel__tfl_quantized(&w[k].t) || w[k].t.zero_point != 0) return ACCEL_E_TFLITE_QUANT;
    kept = accel__tfl_keep(c, 25);
    if (c->rt) {
        if (!kept) return ACCEL_E_STATE;
        for (k = 0; k < 4; k++) {
            g[k].in_mult = kept[4u * (size_t)k];
            g[k].in_shift = kept[4u * k + 1u];
            g[k].rec_mult = kept[4u * k + 2u];
            g[k].rec_shift = kept[4u * k + 3u];
        }
        fm = kept[16], fs = kept[17], im = kept[18], is = kept[19], om = kept[20], os = kept[21];
        tanh_mult = kept[22], tanh_shift = kept[23], qclip = kept[24];
    } else {
        /* gate FC multipliers: input (or hidden) scale * weight scale / 2^-12; order: forget,
         * input, cell, output gates with weights 2/6, 1/5, 3/7, 4/8 and biases 13, 12, 14, 15 */
        {
            static const uint8_t wi[4] = {1, 0, 2, 3};
            for (k = 0; k < 4; k++) {
                const uint32_t s12 = 0x39800000UL; /* 2^-12 */
                st = accel__tfl_qmul(accel__tfl_scale3(x.t.scale_bits, w[wi[k]].t.scale_bits, s12), &g[k].in_mult,
                                     &g[k].in_shift);
                if (st == ACCEL_OK)
                    st = accel__tfl_qmul(accel__tfl_scale3(hid.t.scale_bits, w[4u + wi[k]].t.scale_bits, s12),
                                         &g[k].rec_mult, &g[k].rec_shift);
                if (st != ACCEL_OK) return st;
            }
        }
        {
            const uint32_t s15 = 0x38000000UL; /* 2^-15 */
            st = accel__tfl_qmul(accel__tfl_scale3(s15, cell.t.scale_bits, cell.t.scale_bits), &fm, &fs);
            if (st == ACCEL_OK) st = accel__tfl_qmul(accel__tfl_scale3(s15, s15, cell.t.scale_bits), &im, &is);
            if (st == ACCEL_OK) st = accel__tfl_qmul(accel__tfl_scale3(s15, s15, hid.t.scale_bits), &om, &os);
            if (st != ACCEL_OK) return st;
        }
        cell_pow = accel__tfl_log2_round(cell.t.scale_bits);
        tanh_shift = 15 + cell_pow - 3;
        if (tanh_shift < 0) {
            tanh_shift = -tanh_shift;
            tanh_mult = 3;
        }
        if (tanh_shift > 30) return ACCEL_E_TFLITE_QUANT;
        {
            uint32_t clip = (uint32_t)clip_bits;
            if (!(clip & 0x80000000UL) && (clip & 0x7FFFFFFFUL) && (clip & 0x7F800000UL) != 0x7F800000UL)
                qclip = accel__tfl_num_floor(accel__tfl_num_div(accel__tfl_num_f32(clip),
                                                                accel__tfl_num_f32(cell.t.scale_bits), 53), 32767);
        }
        if (kept) {
            for (k = 0; k < 4; k++) {
                kept[4u * (size_t)k] = g[k].in_mult;
                kept[4u * k + 1u] = g[k].in_shift;
                kept[4u * k + 2u] = g[k].rec_mult;
                kept[4u * k + 3u] = g[k].rec_shift;
            }
            kept[16] = fm, kept[17] = fs, kept[18] = im, kept[19] = is, kept[20] = om, kept[21] = os;
            kept[22] = tanh_mult, kept[23] = tanh_shift, kept[24] = qclip;
        }
    }
    hlo = -128;
    hhi = 127;
    rows = tm ? batch : 1u;
    if ((uint64_t)rows * n_state > 0x3FFFFFFFUL) return ACCEL_E_TFLITE_SHAPE;
    n = (size_t)rows * (size_t)n_state;
    for (k = 0; k < 4; k++) buf[k] = (int16_t *)(void *)accel__tfl_take(c, &used, 2u * n);
    acc = (int32_t *)(void *)accel__tfl_take(c, &used, 4u * (size_t)n);
    if (!c->rt) return ACCEL_OK;
    if (!buf[0] || !buf[1] || !buf[2] || !buf[3] || !acc) return ACCEL_E_STATE;
    for (b = 0; b < (tm ? 1u : batch); b++)
        for (t = 0; t < steps; t++) {
            size_t zt = (size_t)t, zb = (size_t)b, zbatch = (size_t)batch, zsteps = (size_t)steps;
            size_t in_off = tm ? zt * zbatch * (size_t)n_in : (zb * zsteps + zt) * (size_t)n_in;
            size_t out_off = tm ? zt * zbatch * (size_t)n_state : (zb * zsteps + zt) * (size_t)n_state;
            size_t st_off = tm ? 0u : zb * (size_t)n_state;
            int16_t *cs = (int16_t *)(void *)(cell.out + 2u * st_off);
            static const uint8_t wi[4] = {1, 0, 2, 3}, bi[4] = {1, 0, 2, 3};
            /* gates: 0 forget -> buf0, 1 input -> buf1, 2 cell -> buf2, 3 output -> buf1 (after the
             * cell update), the recurrent FC in buf3 */
            for (k = 0; k < 4; k++) {
                int16_t *dst = buf[k == 3 ? 1 : k];
                if (k == 3) {
                    /* cell = forget * cell + input * cell_gate (clipped) before the output gate */
                    for (j = 0; j < n; j++) {
                        int32_t a = accel__tfl_mul16(buf[0][j], cs[j], fm, fs, 0, -32768, 32767);
                        int32_t bb = accel__tfl_mul16(buf[1][j], buf[2][j], im, is, 0, -32768, 32767);
                        int32_t sum = a + bb;
                        sum = sum < -32768 ? -32768 : sum > 32767 ? 32767 : sum;
                        if (qclip > 0) sum = sum > qclip ? qclip : sum < -qclip ? -qclip : sum;
                        cs[j] = (int16_t)sum;
                    }
                }
                st = accel__tfl_lstm_fc(&x, in_off, rows, n_in, &w[wi[k]], &bias[bi[k]], n_state, g[k].in_mult,
                                        g[k].in_shift, acc, dst);
                if (st == ACCEL_OK)
                    st = accel__tfl_lstm_fc(&hid, st_off, rows, n_state, &w[4u + wi[k]], NULL, n_state,
                                            g[k].rec_mult, g[k].rec_shift, acc, buf[3]);
                if (st != ACCEL_OK) return st;
                for (j = 0; j < n; j++) {
                    int32_t sum = dst[j] + buf[3][j];
                    int16_t v = (int16_t)(sum < -32768 ? -32768 : sum > 32767 ? 32767 : sum);
                    if (k == 2) dst[j] = accel__tfl_tanh16(v, 0, 0);
                    else dst[j] = accel__tfl_sigmoid16(v, 0, 0);
                }
            }
            /* hidden = output gate * tanh(cell), into the hidden state and the output */
            for (j = 0; j < n; j++) {
                int16_t th = accel__tfl_tanh16(cs[j], tanh_mult, tanh_shift);
                int32_t h = accel__tfl_mul16(th, buf[1][j], om, os, hid.t.zero_point, hlo, hhi);
                hid.out[st_off + j] = (uint8_t)(h & 0xFF);
            }
            ACCEL_MEMCPY(out.out + out_off, hid.out + st_off, n);
        }
    return ACCEL_OK;
}

/* The operator table: one row per builtin code (the rows ACCEL_TFLITE_OPS keeps). */
ACCEL__TFL_STATIC accel_status accel__tfl_dispatch(accel__tfl_ctx *c)
{
    switch (c->op.code) {
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_FULLY_CONNECTED
    case ACCEL_TFLITE_OP_FULLY_CONNECTED: return accel__tfl_fc(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_CONV_2D
    case ACCEL_TFLITE_OP_CONV_2D: return accel__tfl_conv(c, 0);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_DEPTHWISE_CONV_2D
    case ACCEL_TFLITE_OP_DEPTHWISE_CONV_2D: return accel__tfl_conv(c, 1);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_AVERAGE_POOL_2D
    case ACCEL_TFLITE_OP_AVERAGE_POOL_2D: return accel__tfl_pool(c, 0);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_MAX_POOL_2D
    case ACCEL_TFLITE_OP_MAX_POOL_2D: return accel__tfl_pool(c, 1);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_SOFTMAX
    case ACCEL_TFLITE_OP_SOFTMAX: return accel__tfl_softmax(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_QUANTIZE
    case ACCEL_TFLITE_OP_QUANTIZE: return accel__tfl_quantize(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_RESHAPE
    case ACCEL_TFLITE_OP_RESHAPE: return accel__tfl_reshape(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_CONCATENATION
    case ACCEL_TFLITE_OP_CONCATENATION: return accel__tfl_concat(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_ADD
    case ACCEL_TFLITE_OP_ADD: return accel__tfl_binary(c, 0);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_MUL
    case ACCEL_TFLITE_OP_MUL: return accel__tfl_binary(c, 1);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_SVDF
    case ACCEL_TFLITE_OP_SVDF: return accel__tfl_svdf(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_LOGISTIC
    case ACCEL_TFLITE_OP_LOGISTIC: return accel__tfl_logistic(c);
#endif
#if ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_UNIDIRECTIONAL_SEQUENCE_LSTM
    case ACCEL_TFLITE_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return accel__tfl_lstm(c);
#endif
#if !defined(ACCEL_MAC_NO_FLOAT) && (ACCEL_TFLITE_OPS & ACCEL_TFLITE_K_DEQUANTIZE)
    case ACCEL_TFLITE_OP_DEQUANTIZE: return accel__tfl_dequantize(c);
#endif
    default: return ACCEL_E_UNSUPPORTED;
    }
}

/* ---------------------------------------------------------------- @tflite.plan: arena planner */
/* Check one operator (persist NULL; *scratch and *persist get its needs) or, with persist set,
 * prepare it: derive its constants into persist (persist_len bytes). */
ACCEL__TFL_STATIC accel_status accel__tfl_check_op(const accel_tflite_model *m, uint32_t i, size_t *scratch, size_t *persist,
                                        uint8_t *persist_mem, size_t persist_len)
{
    accel__tfl_ctx c;
    accel_status st;
    ACCEL_MEMSET(&c, 0, sizeof c);
    c.m = m;
    c.index = i;
    c.persist = persist_mem;
    c.persist_len = persist_len;
    st = accel_tflite_op_info(m, i, &c.op);
    if (st == ACCEL_OK) st = accel__tfl_dispatch(&c);
    *scratch = c.scratch_need;
    *persist = c.persist_need;
    return st;
}

ACCELDEF accel_status accel_tflite_check(const accel_tflite_model *m, uint32_t *op, int32_t *code)
{
    uint32_t i;
    if (!m) return ACCEL_E_NULL;
    for (i = 0; i < m->n_ops; i++) {
        size_t s, p;
        accel_status st = accel__tfl_check_op(m, i, &s, &p, NULL, 0);
        if (st != ACCEL_OK) {
            accel_tflite_op o;
            if (op) *op = i;
            if (code) *code = accel_tflite_op_info(m, i, &o) == ACCEL_OK ? o.code : -1;
            return st;
        }
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_plan_scratch_size(const accel_tflite_model *m, size_t *bytes)
{
    if (!m || !bytes) return ACCEL_E_NULL;
    *bytes = accel__tfl_table_bytes(m);
    return ACCEL_OK;
}

ACCEL__TFL_STATIC void accel__tfl_life(accel__tfl_ent *e, uint32_t i)
{
    if (e->first > i) e->first = (uint16_t)i;
    if (e->last < i) e->last = (uint16_t)i;
}

/* Fill the table (tensors, then each operator's scratch, then each operator's constants): sizes
 * and lives (first/last operator; constants and variable tensors live throughout), then place
 * greedily: largest first (ties by index), each at the lowest offset that overlaps no placed
 * entry whose life overlaps. *total = the data bytes. */
ACCEL__TFL_STATIC accel_status accel__tfl_plan(const accel_tflite_model *m, accel__tfl_ent *e, size_t *total)
{
    uint32_t n = m->n_tensors + 2u * m->n_ops, i, k, j;
    uint32_t end = m->n_ops ? m->n_ops - 1u : 0u;
    size_t top = 0;
    accel_status st;
    for (i = 0; i < n; i++) {
        e[i].off = ACCEL__TFL_NONE;
        e[i].size = 0;
        e[i].first = 0xFFFFu;
        e[i].last = 0;
    }
    for (k = 0; k < m->n_inputs; k++) accel__tfl_life(&e[accel_load_u32le(m->buf + m->inputs_ + 4u * (size_t)k)], 0);
    for (k = 0; k < m->n_outputs; k++) accel__tfl_life(&e[accel_load_u32le(m->buf + m->outputs_ + 4u * (size_t)k)], end);
    for (i = 0; i < m->n_ops; i++) {
        accel_tflite_op op;
        size_t s, ps;
        st = accel_tflite_op_info(m, i, &op);
        if (st != ACCEL_OK) return st;
        for (k = 0; k < op.n_inputs + op.n_outputs; k++) {
            int32_t t;
            st = accel_tflite_op_tensor(m, &op, k >= op.n_inputs, k >= op.n_inputs ? k - op.n_inputs : k, &t);
            if (st != ACCEL_OK) return st;
            if (t >= 0) accel__tfl_life(&e[t], i);
        }
        st = accel__tfl_check_op(m, i, &s, &ps, NULL, 0);
        if (st != ACCEL_OK) return st;
        if ((uint64_t)s + 0u > 0xFFFFFFF0UL || (uint64_t)ps + 0u > 0xFFFFFFF0UL) return ACCEL_E_OVERFLOW;
        if (s) {
            e[m->n_tensors + i].size = (uint32_t)accel__tfl_align4(s);
            e[m->n_tensors + i].first = (uint16_t)i;
            e[m->n_tensors + i].last = (uint16_t)i;
        }
        if (ps) {
            e[m->n_tensors + m->n_ops + i].size = (uint32_t)accel__tfl_align4(ps);
            e[m->n_tensors + m->n_ops + i].first = 0;
            e[m->n_tensors + m->n_ops + i].last = (uint16_t)end;
        }
    }
    for (i = 0; i < m->n_tensors; i++) {
        accel_tflite_tensor t;
        st = accel_tflite_tensor_info(m, i, &t);
        if (st != ACCEL_OK) return st;
        if (t.data) { /* constant: stays in the model */
            e[i].first = 0xFFFFu;
            continue;
        }
        if (t.is_variable) { /* state: lives across invocations */
            e[i].first = 0;
            e[i].last = (uint16_t)end;
        }
        if (e[i].first == 0xFFFFu) continue; /* used by nothing */
        if ((uint64_t)t.bytes + 0u > 0xFFFFFFF0UL) return ACCEL_E_OVERFLOW;
        e[i].size = (uint32_t)accel__tfl_align4(t.bytes);
    }
    for (i = 0; i < n; i++)
        if (e[i].first != 0xFFFFu && e[i].size == 0) e[i].first = 0xFFFFu; /* empty: no bytes */
    /* greedy placement; the order is (size desc, index asc), found by scanning, no sort buffer */
    for (;;) {
        uint32_t best = n;
        size_t cand;
        int moved;
        for (i = 0; i < n; i++) {
            if (e[i].first == 0xFFFFu || e[i].off != ACCEL__TFL_NONE) continue;
            if (best == n || e[i].size > e[best].size) best = i;
        }
        if (best == n) break;
        cand = 0;
        do {
            moved = 0;
            for (j = 0; j < n; j++) {
                if (j == best || e[j].off == ACCEL__TFL_NONE) continue;
                if (e[j].last < e[best].first || e[j].first > e[best].last) continue;
                if (cand < (size_t)e[j].off + e[j].size && (size_t)e[j].off < cand + e[best].size) {
                    cand = (size_t)e[j].off + (size_t)e[j].size;
                    moved = 1;
                }
            }
        } while (moved);
        if (cand > 0xFFFFFFF0UL - e[best].size) return ACCEL_E_OVERFLOW;
        e[best].off = (uint32_t)cand;
        if (cand + (size_t)e[best].size > top) top = cand + (size_t)e[best].size;
    }
    *total = top;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_plan(const accel_tflite_model *m, void *work, size_t work_len,
                                              size_t *bytes)
{
    size_t table, data = 0;
    accel_status st;
    if (!m || !work || !bytes) return ACCEL_E_NULL;
    if ((uintptr_t)work % ACCEL__TFL_ALIGN) return ACCEL_E_ALIGN;
    table = accel__tfl_table_bytes(m);
    if (work_len < table) return ACCEL_E_BUFFER_TOO_SMALL;
    st = accel_tflite_check(m, NULL, NULL);
    if (st == ACCEL_OK) st = accel__tfl_plan(m, (accel__tfl_ent *)work, &data);
    if (st != ACCEL_OK) return st;
    *bytes = table + data;
    return ACCEL_OK;
}

/* ---------------------------------------------------------------- @tflite.run: init, invoke */
ACCELDEF accel_status accel_tflite_reset(accel_tflite *rt)
{
    uint32_t i;
    const accel_tflite_model *m;
    if (!rt || !rt->model || !rt->arena) return ACCEL_E_NULL;
    m = rt->model;
    for (i = 0; i < m->n_tensors; i++) {
        accel_tflite_tensor t;
        const accel__tfl_ent *e = accel__tfl_ents(rt) + i;
        accel_status st = accel_tflite_tensor_info(m, i, &t);
        if (st != ACCEL_OK) return st;
        if (!t.is_variable || e->off == ACCEL__TFL_NONE) continue;
        ACCEL_MEMSET(rt->arena + accel__tfl_table_bytes(m) + e->off,
                     t.type == ACCEL_TFLITE_INT8 ? (int)(uint8_t)(t.zero_point & 0xFF) : 0, t.bytes);
    }
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_init(accel_tflite *rt, const accel_tflite_model *m, void *arena,
                                        size_t arena_len)
{
    size_t table, data = 0;
    uint32_t i;
    accel_status st;
    if (!rt || !m || !arena) return ACCEL_E_NULL;
    ACCEL_MEMSET(rt, 0, sizeof *rt);
    rt->model = m;
    if ((uintptr_t)arena % ACCEL__TFL_ALIGN) return ACCEL_E_ALIGN;
    table = accel__tfl_table_bytes(m);
    if (arena_len < table) return ACCEL_E_BUFFER_TOO_SMALL;
    st = accel_tflite_check(m, &rt->bad_op, &rt->bad_code);
    if (st == ACCEL_OK) st = accel__tfl_plan(m, (accel__tfl_ent *)arena, &data);
    if (st != ACCEL_OK) return st;
    if (arena_len - table < data) return ACCEL_E_BUFFER_TOO_SMALL;
    rt->arena = (uint8_t *)arena;
    rt->arena_len = arena_len;
    rt->arena_used = table + data;
    for (i = 0; i < m->n_ops; i++) { /* prepare: each operator's constants, once */
        const accel__tfl_ent *pe = accel__tfl_ents(rt) + m->n_tensors + m->n_ops + i;
        size_t s, p;
        if (pe->off == ACCEL__TFL_NONE) continue;
        st = accel__tfl_check_op(m, i, &s, &p, rt->arena + table + pe->off, (size_t)pe->size);
        if (st != ACCEL_OK) {
            rt->bad_op = i;
            rt->arena = NULL;
            return st;
        }
    }
    return accel_tflite_reset(rt);
}

ACCELDEF accel_status accel_tflite_tensor_data(const accel_tflite *rt, uint32_t tensor, const uint8_t **data,
                                               size_t *bytes)
{
    accel_tflite_tensor t;
    const accel__tfl_ent *e;
    accel_status st;
    if (!rt || !rt->arena || !data || !bytes) return ACCEL_E_NULL;
    st = accel_tflite_tensor_info(rt->model, tensor, &t);
    if (st != ACCEL_OK) return st;
    *bytes = t.bytes;
    if (t.data) {
        *data = t.data;
        return ACCEL_OK;
    }
    e = accel__tfl_ents(rt) + tensor;
    if (e->off == ACCEL__TFL_NONE) {
        *data = NULL;
        return t.bytes ? ACCEL_E_EMPTY : ACCEL_OK;
    }
    *data = rt->arena + accel__tfl_table_bytes(rt->model) + e->off;
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_set_input(accel_tflite *rt, uint32_t k, const void *data, size_t len)
{
    uint32_t ti;
    accel_tflite_tensor t;
    const accel__tfl_ent *e;
    accel_status st;
    if (!rt || !rt->arena || (!data && len)) return ACCEL_E_NULL;
    st = accel_tflite_graph_tensor(rt->model, 0, k, &ti);
    if (st == ACCEL_OK) st = accel_tflite_tensor_info(rt->model, ti, &t);
    if (st != ACCEL_OK) return st;
    if (len != t.bytes) return ACCEL_E_ARG;
    e = accel__tfl_ents(rt) + ti;
    if (t.data || e->off == ACCEL__TFL_NONE) return len ? ACCEL_E_STATE : ACCEL_OK; /* constant or unused */
    ACCEL_MEMCPY(rt->arena + accel__tfl_table_bytes(rt->model) + e->off, data, len);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_get_output(const accel_tflite *rt, uint32_t k, void *out, size_t cap,
                                              size_t *len)
{
    uint32_t ti;
    const uint8_t *p;
    size_t n;
    accel_status st;
    if (!rt || !rt->arena || !len || (!out && cap)) return ACCEL_E_NULL;
    st = accel_tflite_graph_tensor(rt->model, 1, k, &ti);
    if (st == ACCEL_OK) st = accel_tflite_tensor_data(rt, ti, &p, &n);
    if (st != ACCEL_OK) return st;
    *len = n;
    if (cap < n) return ACCEL_E_BUFFER_TOO_SMALL;
    if (n) ACCEL_MEMCPY(out, p, n);
    return ACCEL_OK;
}

ACCELDEF accel_status accel_tflite_invoke(accel_tflite *rt)
{
    const accel_tflite_model *m;
    uint32_t i, k;
    if (!rt || !rt->arena || !rt->model) return ACCEL_E_NULL;
    m = rt->model;
    for (i = 0; i < m->n_ops; i++) {
        accel__tfl_ctx c;
        const accel__tfl_ent *se = accel__tfl_ents(rt) + m->n_tensors + i;
        const accel__tfl_ent *pe = se + m->n_ops;
        accel_status st;
        ACCEL_MEMSET(&c, 0, sizeof c);
        c.m = m;
        c.rt = rt;
        c.index = i;
        if (se->off != ACCEL__TFL_NONE) {
            c.scratch = rt->arena + accel__tfl_table_bytes(m) + se->off;
            c.scratch_len = (size_t)se->size;
        }
        if (pe->off != ACCEL__TFL_NONE) {
            c.persist = rt->arena + accel__tfl_table_bytes(m) + pe->off;
            c.persist_len = (size_t)pe->size;
        }
        st = accel_tflite_op_info(m, i, &c.op);
        if (st == ACCEL_OK) st = accel__tfl_dispatch(&c);
        if (st != ACCEL_OK) {
            rt->bad_op = i;
            rt->bad_code = c.op.code;
            return st;
        }
        if (!rt->on_op) continue;
        for (k = 0; k < c.op.n_outputs; k++) {
            accel__tfl_io io;
            st = accel__tfl_get(&c, 1, k, &io);
            if (st != ACCEL_OK) return st;
            rt->on_op(rt->user, i, c.op.code, (uint32_t)io.index, &io.t, io.in);
        }
    }
    return ACCEL_OK;
}
#ifdef __cplusplus
}
#endif
#endif /* ACCEL_NO_TFLITE */

#endif /* ACCEL_IMPLEMENTATION */

/*
 * LICENSE (MIT)
 * Copyright (c) 2026 the accel authors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 * and associated documentation files (the "Software"), to deal in the Software without
 * restriction, including without limitation the rights to use, copy, modify, merge, publish,
 * distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 * Software is furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or
 * substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
 * BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 * NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
 * DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
