# strait build. `make` builds the library, the launcher and the jar;
# `make run` runs examples/hello.js; `make test` runs every suite.
# Both install missing system packages first (scripts/deps.sh).

CC       ?= cc
PREFIX   ?= /usr/local
BUILD    := build

# The version, written once in VERSION (MAJOR.MINOR.PATCH); include/strait.h
# repeats it in STRAIT_VERSION_* and the build stops if the two disagree.
VERSION  := $(shell cat VERSION)
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
JAVA_HOME ?= $(shell scripts/java-home.sh)
JAVAC    := $(JAVA_HOME)/bin/javac
JAVA     := $(JAVA_HOME)/bin/java
JAR      := $(JAVA_HOME)/bin/jar

JSC_CFLAGS = $(shell pkg-config --cflags javascriptcoregtk-4.1)
JSC_LIBS   = $(shell pkg-config --libs javascriptcoregtk-4.1)
JNI_CFLAGS = -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux

WARN     := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
# -MMD -MP: each object gets a .d file naming the headers it included
# (included at the end), so a header change rebuilds exactly what uses it.
# -fvisibility=hidden: only what strait.h and strait_jvm.h mark STRAIT_API
# (and JNIEXPORT) leaves libstrait.so.
# The layers above the core (src/jni, src/launcher) see only include/ and
# src/common/ (header-only helpers free of strait internals): the core's
# private headers are on the path of the core and its tests alone.
ALL_CFLAGS = -std=gnu11 -fPIC -pthread -fvisibility=hidden -MMD -MP $(WARN) $(CFLAGS) -Iinclude -Isrc $(JSC_CFLAGS)
CORE_CFLAGS = $(ALL_CFLAGS) -Isrc/core

CORE_SRC := $(wildcard src/core/*.c)
JNI_SRC  := $(wildcard src/jni/*.c src/jni/*/*.c)
JNI_JS   := $(sort $(wildcard src/jni/js/*.js))
CORE_JS  := $(sort $(wildcard src/core/js/*.js))
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/js_sources.o
JNI_OBJ  := $(JNI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/jni_js.o
LAUNCH_SRC := $(wildcard src/launcher/*.c)
LAUNCH_JS  := $(sort $(wildcard src/launcher/js/*.js))
LAUNCH_OBJ := $(LAUNCH_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/launcher_js.o

# libstrait.so.MAJOR.MINOR.PATCH with SONAME libstrait.so.MAJOR; the two
# names below it are symlinks (the launcher's DT_NEEDED is the SONAME).
LIB      := $(BUILD)/lib/libstrait.so
LIB_SONAME := libstrait.so.$(VERSION_MAJOR)
LIB_REAL := $(BUILD)/lib/libstrait.so.$(VERSION)
CORE_A   := $(BUILD)/libstraitcore.a
BIN      := $(BUILD)/bin/strait
JARFILE  := $(BUILD)/lib/strait.jar
JAVA_SRC := $(shell find java/src/main/java -name '*.java' 2>/dev/null)

# ---- Java, test and bench variants -------------------------------------------
# The jar carries VERSION in its manifest (Implementation-Version) and as its
# module version (JsRuntime.version()).

.PHONY: FORCE all deps run test test-c test-js test-java asan bench install clean debug sweep-long gc-stress check-version

all: $(LIB) $(BIN) $(JARFILE)

# Debug build in build-debug/: bridge invariants (JB_CHECK) abort on failure.
debug:
	$(MAKE) BUILD=build-debug CFLAGS="-O1 -g -DSTRAIT_DEBUG" all

deps:
	@scripts/deps.sh

$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -o $@ $<

$(BUILD)/gen/js_sources.c: $(BUILD)/tools/embed $(CORE_JS)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed -n strait__js_sources $@ $(CORE_JS)

$(BUILD)/gen/js_sources.o: $(BUILD)/gen/js_sources.c $(BUILD)/cflags.stamp
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/gen/jni_js.c: $(BUILD)/tools/embed $(JNI_JS)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed -n strait__jni_js $@ $(JNI_JS)

$(BUILD)/gen/jni_js.o: $(BUILD)/gen/jni_js.c $(BUILD)/cflags.stamp
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/gen/launcher_js.c: $(BUILD)/tools/embed $(LAUNCH_JS)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed -n strait__launcher_js $@ $(LAUNCH_JS)

$(BUILD)/gen/launcher_js.o: $(BUILD)/gen/launcher_js.c $(BUILD)/cflags.stamp
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Stops the build when include/strait.h and VERSION disagree.
$(BUILD)/version.stamp: VERSION include/strait.h
	@mkdir -p $(dir $@)
	@h=$$(sed -n 's/^#define STRAIT_VERSION "\(.*\)"$$/\1/p' include/strait.h); \
	 p=$$(for k in MAJOR MINOR PATCH; do sed -n "s/^#define STRAIT_VERSION_$$k \([0-9]*\)$$/\1/p" include/strait.h; done | paste -sd.); \
	 if [ "$$h" != "$(VERSION)" ] || [ "$$p" != "$(VERSION)" ]; then \
	   echo "VERSION says $(VERSION), include/strait.h says $$h ($$p)" >&2; exit 1; fi
	@touch $@

check-version: $(BUILD)/version.stamp

# The compiler flags of the last build: objects depend on it, so changed
# flags (or a build from before the .d files) rebuild everything.
$(BUILD)/cflags.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(ALL_CFLAGS) $(JNI_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS) $(JNI_CFLAGS)' > $@

FORCE:

$(BUILD)/src/core/%.o: src/core/%.c $(BUILD)/version.stamp $(BUILD)/cflags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -c -o $@ $<

$(BUILD)/src/jni/%.o: src/jni/%.c $(BUILD)/cflags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(JNI_CFLAGS) -Isrc/jni -c -o $@ $<

$(BUILD)/src/launcher/%.o: src/launcher/%.c $(BUILD)/cflags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSTRAIT_BUILD_JAVA_HOME='"$(JAVA_HOME)"' -c -o $@ $<

$(CORE_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# -Bsymbolic-functions: calls inside the library to its own public
# functions (the JNI layer calling strait_*) bind at link time, not
# through the PLT.
$(LIB_REAL): $(CORE_OBJ) $(JNI_OBJ) src/strait.map
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread -o $@ $(CORE_OBJ) $(JNI_OBJ) -Wl,-soname,$(LIB_SONAME) \
	  -Wl,--version-script=src/strait.map -Wl,-Bsymbolic-functions $(JSC_LIBS) -ldl -lm

$(LIB): $(LIB_REAL)
	ln -sf $(notdir $(LIB_REAL)) $(BUILD)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $@
	@touch -h $@

$(BIN): $(LAUNCH_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) -pthread -o $@ $(LAUNCH_OBJ) -L$(BUILD)/lib -lstrait -Wl,-rpath,'$$ORIGIN/../lib' $(JSC_LIBS) -ldl -lm

# ASM 9 (Debian's libasm-java), which Java.extend uses to generate adapter
# classes, goes into strait.jar relocated to org.strait.internal.asm (an
# unexported package of the module) by tools/RelocateAsm.java, which uses
# ASM's own ClassRemapper: an application's own ASM never clashes with it.
ASM_JAR        := /usr/share/java/asm.jar
ASM_COMMONS_JAR := /usr/share/java/asm-commons.jar
ASM_CLASSES    := $(BUILD)/java/asm

$(BUILD)/java/asm.stamp: tools/RelocateAsm.java $(ASM_JAR)
	@rm -rf $(ASM_CLASSES) && mkdir -p $(ASM_CLASSES)
	$(JAVA) -cp $(ASM_JAR):$(ASM_COMMONS_JAR) tools/RelocateAsm.java $(ASM_JAR) $(ASM_CLASSES)
	@touch $@

$(JARFILE): $(JAVA_SRC) $(LIB) Makefile $(BUILD)/java/asm.stamp
	@rm -rf $(BUILD)/java/classes && mkdir -p $(BUILD)/java/classes/org/strait/native/linux-x86_64
	$(JAVAC) -g -d $(BUILD)/java/classes --release 17 --patch-module org.strait=$(ASM_CLASSES) $(JAVA_SRC)
	cp -r $(ASM_CLASSES)/org $(BUILD)/java/classes/
	mkdir -p $(BUILD)/java/classes/META-INF && cp /usr/share/doc/libasm-java/copyright $(BUILD)/java/classes/META-INF/LICENSE-asm.txt
	cp $(LIB) $(BUILD)/java/classes/org/strait/native/linux-x86_64/
	printf 'Implementation-Title: strait\nImplementation-Version: %s\n' '$(VERSION)' >$(BUILD)/java/MANIFEST.MF
	$(JAR) --create --file $@ --manifest $(BUILD)/java/MANIFEST.MF --module-version $(VERSION) -C $(BUILD)/java/classes .

# Test/bench library variant (build/lib-testing/libstrait.so): the product's
# objects plus the test and benchmark natives of tests/jni and bench/jni,
# which register themselves through the weak hook strait__testing_init
# (src/jni/base/jni_util.h), linked as the product is (the benchmarks
# that load it measure the product's code). Loaded with -Dstrait.library by
# scripts/test-java.sh and scripts/bench.sh; the product library and jar
# hold none of it.
TESTING_SRC := $(wildcard tests/jni/*.c bench/jni/*.c)
TESTING_OBJ := $(TESTING_SRC:%.c=$(BUILD)/testing/%.o)
TESTING_LIB := $(BUILD)/lib-testing/libstrait.so

.PHONY: testing-lib
testing-lib: $(TESTING_LIB)
test test-java bench: testing-lib

$(BUILD)/testing/%.o: %.c $(BUILD)/cflags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(JNI_CFLAGS) -Isrc/jni -c -o $@ $<

$(TESTING_LIB): $(CORE_OBJ) $(JNI_OBJ) $(TESTING_OBJ) src/strait.map
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread -o $@ $(CORE_OBJ) $(JNI_OBJ) $(TESTING_OBJ) \
	  -Wl,--version-script=src/strait.map -Wl,-Bsymbolic-functions $(JSC_LIBS) -ldl -lm

run: deps all
	$(BIN) examples/hello.js

test: deps all
	@scripts/test-all.sh

test-c: all
	@scripts/test-c.sh

test-js: all
	@scripts/test-js.sh

test-java: all
	@scripts/test-java.sh

# Core unit tests under AddressSanitizer + UBSan (no JVM involved).
asan:
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g -DSTRAIT_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer" build-asan/libstraitcore.a
	@SAN=1 BUILD=build-asan scripts/test-c.sh

bench: deps all
	@scripts/bench.sh

# Installs under $(DESTDIR)$(PREFIX): bin/strait, lib/libstrait.so.* (the
# versioned file and its two symlinks), lib/strait.jar, include/strait.h,
# include/strait_jvm.h, and lib/pkgconfig/strait.pc for C embedders
# (`pkg-config --cflags --libs strait`).
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/strait
	install -m 755 $(LIB_REAL) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(LIB_REAL)) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/libstrait.so
	install -m 644 $(JARFILE) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/strait.h include/strait_jvm.h $(DESTDIR)$(PREFIX)/include/
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: strait' 'Description: JavaScriptCore runtime for the JVM (C API)' \
	  'Version: $(VERSION)' 'Requires: javascriptcoregtk-4.1' \
	  'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lstrait' \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/strait.pc

clean:
	rm -rf build build-asan build-debug

# Header dependencies written by -MMD -MP.
-include $(CORE_OBJ:.o=.d) $(JNI_OBJ:.o=.d) $(LAUNCH_OBJ:.o=.d) $(TESTING_OBJ:.o=.d)

# Interop sweep with every argument vector of every member (tests/js/java/sweep.test.sh; SWEEP_SEED, SWEEP_CLASSES, SWEEP_BUDGET).
sweep-long: all
	@SWEEP_BUDGET=$${SWEEP_BUDGET:-0} SWEEP_CHUNK=$${SWEEP_CHUNK:-15} SWEEP_TIMEOUT=$${SWEEP_TIMEOUT:-300} bash tests/js/java/sweep.test.sh

# GC stress loop, not part of `make test`: 2000 runs of 2 s, 2 at a time, took
# 47 minutes on 2 shared CPUs. GC_STRESS_RUNS, GC_STRESS_MS, GC_STRESS_JOBS: see the script.
gc-stress: all
	@scripts/gc-stress.sh
