# accel - build host tools, examples and tests. No other build system is needed.
#   make          host tools and examples into build/
#   make test     everything CI runs (scripts/test.sh): sanitized tests, C++ and config builds,
#                 cross builds, size and symbol checks; ends with "N passed, N failed"
#   make demo     run the demos on the simulator port
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
#   examples/host/*.c       one program each (build/<name>); demo_*.c are run by `make demo`
#   scripts/bench/bench_*.c one benchmark each, run by `make bench`
# With libnanopb-dev installed, ports/bridge (and the capture replay of ports/sim) is linked
# into every program and ACCEL_HAVE_BRIDGE is defined; without it they are left out.

CC      ?= cc
CXX     ?= c++
CFLAGS_WARN := -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wcast-align \
               -Wundef -Wshadow -Werror
OPT     ?= -O2 -g
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
INC     := -I. -Iports/sim -Iports/linux -Itests
B       := build

# Optional host libraries: libusb-1.0 for ports/linux/accel_linux_usb.c.
HAVE_LIBUSB := $(shell pkg-config --exists libusb-1.0 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBUSB),1)
USB_CFLAGS := $(shell pkg-config --cflags libusb-1.0) -DACCEL_HAVE_LIBUSB=1
USB_LIBS   := $(shell pkg-config --libs libusb-1.0)
endif

# Optional: nanopb (libnanopb-dev) for ports/bridge (the bridge, the capture replay model in
# ports/sim, --bridge/--capture in the tools). Without it those parts are left out by name.
HAVE_NANOPB := $(shell printf '\043include <pb_decode.h>\nint main(void){return 0;}\n' | \
                 $(CC) -x c - -lprotobuf-nanopb -o /dev/null 2>/dev/null && echo 1)
ifeq ($(HAVE_NANOPB),1)
BRIDGE_SRC    := $(wildcard ports/bridge/*.c) ports/sim/accel_replay.c
BRIDGE_CFLAGS := -Iports/bridge -DACCEL_HAVE_BRIDGE=1
BRIDGE_LIBS   := -lprotobuf-nanopb
endif

PORT_SRC  := ports/sim/accel_sim.c $(wildcard ports/linux/*.c) $(BRIDGE_SRC)
PORT_HDR  := $(wildcard ports/sim/*.h ports/linux/*.h ports/bridge/*.h)
# files that programs include from beside them (a change rebuilds every program; they are small)
SIDE_DEPS := $(wildcard examples/host/*.h tests/*.h tests/test_*.c tests/vectors/*/*.h)
TOOLS     := $(patsubst examples/host/%.c,$(B)/%,$(wildcard examples/host/*.c))
TESTS     := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))
BENCHES   := $(patsubst scripts/bench/%.c,$(B)/bench/%,$(wildcard scripts/bench/bench_*.c))
DEMOS     := $(filter $(B)/demo_%,$(TOOLS))

.PHONY: all test tests demo size bench bench-mcu soak clean setup coverage fuzz arduino
all: $(TOOLS)

$(B)/%: examples/host/%.c accel.h $(PORT_SRC) $(PORT_HDR) $(SIDE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_WARN) $(OPT) $(INC) $(USB_CFLAGS) $(BRIDGE_CFLAGS) -o $@ $< $(PORT_SRC) $(USB_LIBS) $(BRIDGE_LIBS) -lm

# Tests: sanitizers on, warnings as errors, the header's internal invariants checked (a broken
# one traps, and the sanitizer runtime prints where).
ASSERT  := '-DACCEL_ASSERT(x)=((x) ? (void)0 : __builtin_trap())'
$(B)/tests/%: tests/%.c accel.h $(PORT_SRC) $(PORT_HDR) $(SIDE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_WARN) -O1 -g $(SAN) $(ASSERT) $(INC) $(USB_CFLAGS) $(BRIDGE_CFLAGS) -o $@ $< $(PORT_SRC) $(USB_LIBS) $(BRIDGE_LIBS) -lm

tests: $(TESTS) $(TOOLS)

test:
	@bash scripts/test.sh

demo: $(DEMOS)
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
$(B)/bench/%: scripts/bench/%.c accel.h $(wildcard scripts/bench/parts/*/*)
	@mkdir -p $(B)/bench/obj/$*
	@objs=""; for f in $(wildcard scripts/bench/parts/$*/*.c); do o=$(B)/bench/obj/$*/$$(basename $$f).o; \
	  case $$f in *.O2.c) fl=-O2 ;; *.O3.c) fl=-O3 ;; *) fl="-O3 -march=native" ;; esac; \
	  $(CC) -std=c99 $$fl -g $(INC) -c $$f -o $$o || exit 1; objs="$$objs $$o"; done; \
	for f in $(wildcard scripts/bench/parts/$*/*.cpp); do o=$(B)/bench/obj/$*/$$(basename $$f).o; \
	  $(CXX) -std=c++14 -O3 -march=native -g $(INC) -c $$f -o $$o || exit 1; objs="$$objs $$o"; done; \
	libs=$$(cat scripts/bench/parts/$*/LIBS 2>/dev/null); \
	echo "building $@"; \
	$(CC) -std=c99 -O3 -march=native -g $(INC) -c $< -o $(B)/bench/obj/$*/main.o && \
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
	$(CC) $(CFLAGS_WARN) -O2 $(INC) -o $(B)/soak/test_tsp1_soak tests/test_tsp1_soak.c ports/sim/accel_sim.c
	$(B)/soak/test_tsp1_soak $(SOAK_COMMANDS)

clean:
	rm -rf $(B)
