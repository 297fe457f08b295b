# accel - build host tools, examples and tests. No other build system is needed.
#   make          host tools and examples into build/ (make -jN is safe)
#   make lib      build/libaccel.a alone: the implementation and the host's ports
#   make test     everything CI runs (scripts/test.sh): sanitized tests, C++ and config builds,
#                 cross builds, size and symbol checks; ends with "N passed, N failed"
#   make test-SECTION  one section's tests (tsp1 edgetpu refsi ane mac tflite ports), the
#                 others left out of each build, and the header-wide checks (tests/README.md)
#   make demo     what `make` builds, then run the demos on the simulator port
#   make size     .text/.data/.bss per section on cortex-m0plus -Os
#   make bench    benchmark report (never part of make test)
#   make coverage line and branch coverage of accel.h per section (report)
#   make fuzz     libFuzzer campaign over every target (report; FUZZ_SECONDS, FUZZ_RUNS)
#   make arduino  the Arduino library: build/arduino/Accel/ and build/Accel-VERSION.zip
#   make soak     TSP1 driver against its device model with random faults, 1,000,000 commands
#                 (SOAK_COMMANDS=n to change; ACCEL_TEST_SEED=n replays a run); make test runs
#                 50,000 of them
#   make bench-mcu  instructions per MAC of the mac kernels on emulated Cortex-M0/M3/M4/M33, and
#                 instructions per inference of the shared .tflite models on Cortex-M4
# Programs are found by name, so a new section adds files, not Makefile rules:
#   tests/test_*.c          one sanitized test binary each (intrusive: defines ACCEL_IMPLEMENTATION)
#   examples/host/*.c       one program each (build/<name>), linked against build/libaccel.a;
#                           demo_*.c are run by `make demo`
#   scripts/bench/bench_*.c one benchmark each, run by `make bench`
# With libnanopb-dev installed, ports/bridge (the bridge and the capture replay model) is in the
# libraries and ACCEL_HAVE_BRIDGE is defined; without it they are left out.

CC      ?= cc
CXX     ?= c++
CFLAGS_WARN := -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align \
               -Wundef -Wshadow -Werror
OPT     ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# examples include from the header and ports only; tests may also include from tests/
INC     := -I. -Iports/sim -Iports/linux
TINC    := $(INC) -Itests
B       := build
DEP      = -MMD -MP -MF $@.d -MT $@

# Optional host libraries: libusb-1.0 for ports/linux/accel_linux_usb.c.
HAVE_LIBUSB := $(shell pkg-config --exists libusb-1.0 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBUSB),1)
USB_CFLAGS := $(shell pkg-config --cflags libusb-1.0) -DACCEL_HAVE_LIBUSB=1
USB_LIBS   := $(shell pkg-config --libs libusb-1.0)
endif

# Optional: nanopb (libnanopb-dev) for ports/bridge (the bridge, the capture replay model,
# --bridge/--capture/--replay in the tools). Without it those parts are left out by name.
HAVE_NANOPB := $(shell printf '\043include <pb_decode.h>\nint main(void){return 0;}\n' | \
                 $(CC) -x c - -lprotobuf-nanopb -o /dev/null 2>/dev/null && echo 1)
ifeq ($(HAVE_NANOPB),1)
BRIDGE_SRC    := $(wildcard ports/bridge/*.c)
BRIDGE_CFLAGS := -Iports/bridge -DACCEL_HAVE_BRIDGE=1
BRIDGE_LIBS   := -lprotobuf-nanopb
endif

# The implementation is compiled once per configuration, and so is each port file:
#   build/libaccel.a        accel.h's implementation and the host's ports, -O2: every program
#                           in examples/host links against it. The implementation is one object
#                           per part (ports/impl/accel_impl_part.c, once per section and once for
#                           common), compiled in parallel; a change to one section's code
#                           recompiles that part (every part includes the whole header)
#   build/tests/libports.a  the ports again with the tests' sanitizers; a test defines
#                           ACCEL_IMPLEMENTATION itself (it may reach into the implementation
#                           and choose its own configuration macros), so it links the ports only
# Dependencies come from the compiler (-MMD), so a change rebuilds exactly what includes it.
PORT_SRC  := ports/sim/accel_sim.c $(wildcard ports/linux/*.c) $(BRIDGE_SRC)
LIB       := $(B)/libaccel.a
IMPL_PARTS := tflite mac edgetpu ane tsp1 common refsi
IMPL_OBJ  := $(patsubst %,$(B)/obj/impl/%.o,$(IMPL_PARTS))
LIB_OBJ   := $(IMPL_OBJ) $(patsubst %.c,$(B)/obj/%.o,$(PORT_SRC))
TLIB      := $(B)/tests/libports.a
TLIB_OBJ  := $(patsubst %.c,$(B)/tests/obj/%.o,$(PORT_SRC))
LIBS      := $(USB_LIBS) $(BRIDGE_LIBS) -lm
TOOLS     := $(patsubst examples/host/%.c,$(B)/%,$(wildcard examples/host/*.c))
TESTS     := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))
BENCHES   := $(patsubst scripts/bench/%.c,$(B)/bench/%,$(wildcard scripts/bench/bench_*.c))
DEMOS     := $(filter $(B)/demo_%,$(TOOLS))

.PHONY: all lib test tests demo size bench bench-mcu soak clean setup coverage fuzz arduino
all: $(TOOLS)
lib: $(LIB)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_WARN) $(OPT) $(INC) $(USB_CFLAGS) $(BRIDGE_CFLAGS) $(DEP) -c $< -o $@

# the biggest parts first, so make -jN starts them first
$(IMPL_OBJ): $(B)/obj/impl/%.o: ports/impl/accel_impl_part.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_WARN) $(OPT) $(INC) $(USB_CFLAGS) $(BRIDGE_CFLAGS) $(DEP) \
	    -DACCEL_PART_$(shell echo $* | tr a-z A-Z) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(TOOLS): $(B)/%: $(B)/obj/examples/host/%.o $(LIB)
	$(CC) -o $@ $< $(LIB) $(LIBS)

# Tests: sanitizers on, warnings as errors, the header's internal invariants checked (a broken
# one traps, and the sanitizer runtime prints where).
ASSERT  := '-DACCEL_ASSERT(x)=((x) ? (void)0 : __builtin_trap())'
TFLAGS  := $(CFLAGS_WARN) -O1 -g $(SAN) $(ASSERT) $(TINC) $(USB_CFLAGS) $(BRIDGE_CFLAGS)

$(B)/tests/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(TFLAGS) $(DEP) -c $< -o $@

$(TLIB): $(TLIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(TESTS): $(B)/tests/%: tests/%.c $(TLIB)
	@mkdir -p $(dir $@)
	$(CC) $(TFLAGS) $(DEP) -o $@ $< $(TLIB) $(LIBS)

-include $(wildcard $(B)/obj/*/*.d $(B)/obj/*/*/*.d $(B)/tests/*.d $(B)/tests/obj/*/*/*.d)

tests: $(TESTS) $(TOOLS)

test:
	@bash scripts/test.sh

# One section's loop (scripts/test_section.sh): its tests from tests/README.md's table, each
# compiled with the other sections left out, and the header-wide checks; prints the seconds
SECTION_TESTS := $(addprefix test-,tsp1 edgetpu refsi ane mac tflite ports)
.PHONY: $(SECTION_TESTS)
$(SECTION_TESTS): test-%: $(TLIB)
	@ACCEL_TFLAGS="$(TFLAGS)" ACCEL_TLIBS="$(TLIB) $(LIBS)" CC="$(CC)" bash scripts/test_section.sh $*

# builds everything `make` builds, then runs each demo (each ends with one summary line)
demo: $(TOOLS)
	@for d in $(DEMOS); do echo "== $$d"; $$d || exit 1; done

size:
	@bash scripts/size.sh

# Reports, not tests: line/branch coverage of accel.h per section; libFuzzer campaigns
# (FUZZ_SECONDS per target, or FUZZ_RUNS executions; corpus kept in build/fuzz/).
coverage:
	@bash scripts/coverage.sh

fuzz:
	@bash scripts/fuzz.sh

# A bench may have extra translation units (C or C++) in scripts/bench/parts/<bench>/ and extra
# link flags in scripts/bench/parts/<bench>/LIBS (e.g. baselines from Debian packages). C parts
# are built -O3 -march=native, except *.O2.c (plain -O2) and *.O3.c (plain -O3).
$(B)/bench/%: scripts/bench/%.c scripts/bench/benchlib.h accel.h $(wildcard scripts/bench/parts/*/*)
	@mkdir -p $(B)/bench/obj/$*
	@objs=""; for f in $(wildcard scripts/bench/parts/$*/*.c); do o=$(B)/bench/obj/$*/$$(basename $$f).o; \
	  case $$f in *.O2.c) fl=-O2 ;; *.O3.c) fl=-O3 ;; *) fl="-O3 -march=native" ;; esac; \
	  $(CC) -std=c99 $$fl -g $(TINC) -c $$f -o $$o || exit 1; objs="$$objs $$o"; done; \
	for f in $(wildcard scripts/bench/parts/$*/*.cpp); do o=$(B)/bench/obj/$*/$$(basename $$f).o; \
	  $(CXX) -std=c++14 -O3 -march=native -g $(TINC) -c $$f -o $$o || exit 1; objs="$$objs $$o"; done; \
	libs=$$(cat scripts/bench/parts/$*/LIBS 2>/dev/null); \
	echo "building $@"; \
	$(CC) -std=c99 -O3 -march=native -g $(TINC) -c $< -o $(B)/bench/obj/$*/main.o && \
	$(CXX) -o $@ $(B)/bench/obj/$*/main.o $$objs $$libs -lz -lm

bench:
	@bash scripts/setup.sh --bench
	@$(MAKE) -s $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done

bench-mcu:
	@bash scripts/bench_mcu.sh
	@bash scripts/bench_tflite_mcu.sh

setup:
	@bash scripts/setup.sh

arduino:
	@bash scripts/arduino_lib.sh

SOAK_COMMANDS ?= 1000000
soak:
	@mkdir -p $(B)/soak
	$(CC) $(CFLAGS_WARN) -O2 $(TINC) -o $(B)/soak/test_tsp1_soak tests/test_tsp1_soak.c ports/sim/accel_sim.c
	$(B)/soak/test_tsp1_soak $(SOAK_COMMANDS)

clean:
	rm -rf $(B)
