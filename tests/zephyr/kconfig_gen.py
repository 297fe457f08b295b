#!/usr/bin/python3
"""kconfig_gen.py - check the module's Kconfig and a sample's prj.conf, write autoconf.h.

    kconfig_gen.py KCONFIG PRJ_CONF OUT_AUTOCONF_H [SYMBOL=VALUE ...]

Parses KCONFIG (ports/zephyr/Kconfig) with kconfiglib, beside stand-ins for the few Zephyr
symbols the samples set or depend on (SPI, GPIO, I2C, PRINTK and BOOT_BANNER, which selects it,
MAIN_STACK_SIZE, the UART and console symbols, RING_BUFFER, the nanopb module's NANOPB, EMUL and
the SPI and GPIO emulators: Zephyr's own Kconfig tree is not available here), loads PRJ_CONF (an
empty string: defaults only; several files joined by commas) and any extra assignments,
and fails on any Kconfig warning: a symbol that does not exist, a value out of range, an
assignment that did not take (unmet dependency), or an ACCEL_* option that nothing in the module
uses (its CONFIG_ name in none of the module's .c/.h/CMakeLists.txt files beside KCONFIG: an
option that would change nothing). Then writes autoconf.h as Zephyr does
(#define CONFIG_X 1 / value), for `-imacros` on every compile. Exit status 0 or 1."""
import glob
import os
import re
import sys
import tempfile

import kconfiglib

ZEPHYR_STANDINS = """
config SPI
	bool "SPI drivers (stand-in for Zephyr's symbol)"
config GPIO
	bool "GPIO drivers (stand-in)"
config I2C
	bool "I2C drivers (stand-in)"
config PRINTK
	bool "printk (stand-in)"
	default y
config BOOT_BANNER
	bool "boot banner (stand-in; Zephyr's selects PRINTK, so PRINTK=n does not take)"
	default y
	select PRINTK
config APPLICATION_INIT_PRIORITY
	int "init priority of application devices (stand-in)"
	default 90
config EMUL
	bool "emulators (stand-in)"
config SPI_EMUL
	bool "SPI emulator controller (stand-in; Zephyr's also needs the devicetree node)"
	default y
	depends on SPI && EMUL
config GPIO_EMUL
	bool "emulated GPIO controller (stand-in)"
	default y
	depends on GPIO
config DT_HAS_ABR_TSP1_ENABLED
	def_bool y
config MAIN_STACK_SIZE
	int "main thread stack (stand-in)"
	default 1024
config SERIAL
	bool "serial drivers (stand-in)"
config UART_INTERRUPT_DRIVEN
	bool "UART interrupt-driven API (stand-in)"
	depends on SERIAL
config CONSOLE
	bool "console (stand-in)"
	default y
config UART_CONSOLE
	bool "console on a UART (stand-in)"
	depends on CONSOLE && SERIAL
	default y
config RING_BUFFER
	bool "ring buffers (stand-in)"
config NANOPB
	bool "nanopb module (stand-in for modules/nanopb/Kconfig)"
"""


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: kconfig_gen.py KCONFIG PRJ_CONF OUT [SYM=VAL ...]\n")
        return 1
    kconfig, prj, out = sys.argv[1:4]
    extra = sys.argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        top = os.path.join(tmp, "Kconfig")
        with open(top, "w") as f:
            f.write('mainmenu "accel checks"\n%s\nsource "%s"\n' % (ZEPHYR_STANDINS,
                                                                 os.path.abspath(kconfig)))
        kconf = kconfiglib.Kconfig(top, warn_to_stderr=False)
        kconf.warn_assign_undef = True  # an assignment to a symbol that does not exist
        files = [f for f in prj.split(",") if f]
        kconf.load_config(files[0] if files else os.devnull, replace=True)
        for f in files[1:]:  # fragments merged in order, as Zephyr merges board .conf files
            kconf.load_config(f, replace=False)
        # as Zephyr's kconfig.py does: every assignment must have taken (a dependency not met,
        # a value out of range or a symbol without a prompt silently keep another value)
        for line in [l for f in files for l in open(f).read().splitlines()]:
            line = line.strip()
            if not line.startswith("CONFIG_") or "=" not in line:
                continue
            name, val = line.split("=", 1)
            sym = kconf.syms.get(name[len("CONFIG_"):])
            if sym is not None and sym.str_value != val.strip('"'):
                kconf.warnings.append("%s=%s did not take (the value is %r)" %
                                      (name, val, sym.str_value))
        for a in extra:
            name, val = a.split("=", 1)
            sym = kconf.syms.get(name.replace("CONFIG_", "", 1))
            if sym is None:
                kconf.warnings.append("extra assignment to undefined symbol " + name)
                continue
            if not sym.set_value(val):
                kconf.warnings.append("extra assignment %s rejected" % a)
            elif sym.str_value != val:
                kconf.warnings.append("extra assignment %s did not take (now %s)" %
                                      (a, sym.str_value))
        # every option of the module reaches the code (accel_zephyr_config.h, the port, CMake)
        here = os.path.dirname(os.path.abspath(kconfig))
        used = ""
        for f in (glob.glob(os.path.join(here, "*.[ch]")) + glob.glob(os.path.join(here, "*", "*.[ch]")) +
                  [os.path.join(here, "CMakeLists.txt")]):
            used += open(f).read()
        for name in kconf.syms:
            if name.startswith("ACCEL") and kconf.syms[name].nodes and \
                    not re.search(r"\bCONFIG_%s\b" % name, used):
                kconf.warnings.append("option %s is used by no file of the module" % name)
        if kconf.warnings:
            for w in kconf.warnings:
                sys.stderr.write("kconfig: %s\n" % w)
            return 1
        kconf.write_autoconf(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
