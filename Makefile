# strait build. `make` builds the library, the launcher and the jar;
# `make run` runs examples/hello.js; `make test` runs every suite.
# Both install missing system packages first (scripts/deps.sh).

CC       ?= cc
PREFIX   ?= /usr/local
BUILD    := build
JAVA_HOME ?= $(shell scripts/java-home.sh)
JAVAC    := $(JAVA_HOME)/bin/javac
JAVA     := $(JAVA_HOME)/bin/java
JAR      := $(JAVA_HOME)/bin/jar

JSC_CFLAGS = $(shell pkg-config --cflags javascriptcoregtk-4.1)
JSC_LIBS   = $(shell pkg-config --libs javascriptcoregtk-4.1)
JNI_CFLAGS = -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux

WARN     := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 -fPIC -pthread $(WARN) $(CFLAGS) -Iinclude -Isrc/core $(JSC_CFLAGS)

CORE_SRC := $(wildcard src/core/*.c)
JNI_SRC  := $(wildcard src/jni/*.c src/jni/*/*.c)
CORE_JS  := $(sort $(wildcard src/core/js/*.js))
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/js_sources.o
JNI_OBJ  := $(JNI_SRC:%.c=$(BUILD)/%.o)
LAUNCH_SRC := $(wildcard src/launcher/*.c)
LAUNCH_OBJ := $(LAUNCH_SRC:%.c=$(BUILD)/%.o)

LIB      := $(BUILD)/lib/libstrait.so
CORE_A   := $(BUILD)/libstraitcore.a
BIN      := $(BUILD)/bin/strait
JARFILE  := $(BUILD)/lib/strait.jar
JAVA_SRC := $(shell find java/src/main/java -name '*.java' 2>/dev/null)

# ---- Java, test and bench variants (h-java block) ---------------------------
# strait's version, one place: the jar's manifest (Implementation-Version) and
# module version (JsRuntime.version()).
VERSION  ?= 0.1.0

.PHONY: all deps run test test-c test-js test-java asan bench install clean debug sweep-long gc-stress

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
	$(BUILD)/tools/embed $@ $(CORE_JS)

$(BUILD)/gen/js_sources.o: $(BUILD)/gen/js_sources.c src/core/internal.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/src/core/%.o: src/core/%.c $(wildcard src/core/*.h) include/strait.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/src/jni/%.o: src/jni/%.c $(wildcard src/jni/*/*.h src/core/*.h) include/strait.h include/strait_jvm.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(JNI_CFLAGS) -Isrc/jni -c -o $@ $<

$(BUILD)/src/launcher/%.o: src/launcher/%.c $(wildcard src/launcher/*.h) include/strait.h include/strait_jvm.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DSTRAIT_BUILD_JAVA_HOME='"$(JAVA_HOME)"' -c -o $@ $<

$(CORE_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIB): $(CORE_OBJ) $(JNI_OBJ) src/strait.map
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread -o $@ $(CORE_OBJ) $(JNI_OBJ) -Wl,--version-script=src/strait.map $(JSC_LIBS) -ldl -lm

$(BIN): $(LAUNCH_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) -pthread -o $@ $(LAUNCH_OBJ) -L$(BUILD)/lib -lstrait -Wl,-rpath,'$$ORIGIN/../lib' $(JSC_LIBS) -ldl -lm

$(JARFILE): $(JAVA_SRC) $(LIB) Makefile
	@rm -rf $(BUILD)/java/classes && mkdir -p $(BUILD)/java/classes/org/strait/native/linux-x86_64
	$(JAVAC) -g -d $(BUILD)/java/classes --release 17 $(JAVA_SRC)
	cp $(LIB) $(BUILD)/java/classes/org/strait/native/linux-x86_64/
	printf 'Implementation-Title: strait\nImplementation-Version: %s\n' '$(VERSION)' >$(BUILD)/java/MANIFEST.MF
	$(JAR) --create --file $@ --manifest $(BUILD)/java/MANIFEST.MF --module-version $(VERSION) -C $(BUILD)/java/classes .

# Test/bench library variant (build/lib-testing/libstrait.so): the product's
# objects plus the test and benchmark natives of tests/jni and bench/jni,
# which register themselves through the weak hook strait__testing_init
# (src/jni/base/jni_util.h). Loaded with -Dstrait.library by
# scripts/test-java.sh and scripts/bench.sh; the product library and jar
# hold none of it.
TESTING_SRC := $(wildcard tests/jni/*.c bench/jni/*.c)
TESTING_OBJ := $(TESTING_SRC:%.c=$(BUILD)/testing/%.o)
TESTING_LIB := $(BUILD)/lib-testing/libstrait.so

.PHONY: testing-lib
testing-lib: $(TESTING_LIB)
test test-java bench: testing-lib

$(BUILD)/testing/%.o: %.c $(wildcard src/jni/*/*.h src/core/*.h) include/strait.h include/strait_jvm.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(JNI_CFLAGS) -Isrc/jni -c -o $@ $<

$(TESTING_LIB): $(CORE_OBJ) $(JNI_OBJ) $(TESTING_OBJ) src/strait.map
	@mkdir -p $(dir $@)
	$(CC) -shared -pthread -o $@ $(CORE_OBJ) $(JNI_OBJ) $(TESTING_OBJ) -Wl,--version-script=src/strait.map $(JSC_LIBS) -ldl -lm

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

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/strait
	install -m 644 $(LIB) $(JARFILE) $(DESTDIR)$(PREFIX)/lib/

clean:
	rm -rf build build-asan build-debug

# Interop sweep with every argument vector of every member (tests/js/java/sweep.test.sh; SWEEP_SEED, SWEEP_CLASSES, SWEEP_BUDGET).
sweep-long: all
	@SWEEP_BUDGET=$${SWEEP_BUDGET:-0} SWEEP_CHUNK=$${SWEEP_CHUNK:-15} SWEEP_TIMEOUT=$${SWEEP_TIMEOUT:-300} bash tests/js/java/sweep.test.sh

# GC stress loop, not part of `make test`: 2000 runs of 2 s, 2 at a time, took
# 47 minutes on 2 shared CPUs. GC_STRESS_RUNS, GC_STRESS_MS, GC_STRESS_JOBS: see the script.
gc-stress: all
	@scripts/gc-stress.sh
