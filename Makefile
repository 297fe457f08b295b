# accel - build host tools, examples and tests. No other build system is needed.
#   make          host tools and examples into build/
#   make test     everything CI runs (scripts/test.sh): sanitized tests, C++ and config builds,
#                 cross builds, size and symbol checks; ends with "N passed, N failed"
#   make demo     run the demos on the simulator port
#   make size     .text/.data/.bss per section on cortex-m0plus -Os
#   make bench    benchmark report (never part of make test)
#   make bench-mcu  instructions per MAC of the mac kernels on emulated Cortex-M0/M3/M4/M33
# Programs are found by name, so a new section adds files, not Makefile rules:
#   tests/test_*.c          one sanitized test binary each (intrusive: defines ACCEL_IMPLEMENTATION)
#   examples/host/*.c       one program each (build/<name>); demo_*.c are run by `make demo`
#   scripts/bench/bench_*.c one benchmark each, run by `make bench`

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

PORT_SRC  := ports/sim/accel_sim.c $(wildcard ports/linux/*.c)
PORT_HDR  := $(wildcard ports/sim/*.h ports/linux/*.h)
# files that programs include from beside them (a change rebuilds every program; they are small)
SIDE_DEPS := $(wildcard examples/host/*.h tests/*.h tests/test_*.c)
TOOLS     := $(patsubst examples/host/%.c,$(B)/%,$(wildcard examples/host/*.c))
TESTS     := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))
BENCHES   := $(patsubst scripts/bench/%.c,$(B)/bench/%,$(wildcard scripts/bench/bench_*.c))
DEMOS     := $(filter $(B)/demo_%,$(TOOLS))

.PHONY: all test tests demo size bench bench-mcu clean setup
all: $(TOOLS)

$(B)/%: examples/host/%.c accel.h $(PORT_SRC) $(PORT_HDR) $(SIDE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_WARN) $(OPT) $(INC) $(USB_CFLAGS) -o $@ $< $(PORT_SRC) $(USB_LIBS) -lm

# Tests: sanitizers on, warnings as errors.
$(B)/tests/%: tests/%.c accel.h $(PORT_SRC) $(PORT_HDR) $(SIDE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_WARN) -O1 -g $(SAN) $(INC) $(USB_CFLAGS) -o $@ $< $(PORT_SRC) $(USB_LIBS) -lm

tests: $(TESTS) $(TOOLS)

test:
	@bash scripts/test.sh

demo: $(DEMOS)
	@for d in $(DEMOS); do echo "== $$d"; $$d || exit 1; done

size:
	@bash scripts/size.sh

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

setup:
	@bash scripts/setup.sh

clean:
	rm -rf $(B)
