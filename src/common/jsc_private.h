/*
 * jsc_private.h - prototypes of JavaScriptCore functions that are exported
 * by libjavascriptcoregtk but declared only in WebKit's private headers,
 * which distributions do not install. Every use of them goes through this
 * one header so a JSC that drops one fails to link in one obvious place.
 */
#ifndef STRAIT_JSC_PRIVATE_H
#define STRAIT_JSC_PRIVATE_H

#include <JavaScriptCore/JavaScript.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Takes / releases the VM's API lock (recursive) around many calls. */
void JSLock(JSContextRef ctx);
void JSUnlock(JSContextRef ctx);

/* Terminates scripts that run longer than limit seconds (sandbox). */
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                         JSShouldTerminateCallback callback,
                                         void *context);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

/* Called for a rejected promise nobody handled; function(promise, reason). */
void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx,
                                                  JSObjectRef function,
                                                  JSValueRef *exception);

/* Weak references to JS objects: JSWeakGetObject returns NULL once a
 * collection has found the object dead (at the end of that collection,
 * before its cell is swept or finalized). Read one holding the VM lock
 * unless the object is known to be reachable: inside a C callback JSC has
 * dropped its locks, and a collection may end during an unlocked read.
 * Create and release take the VM lock (never from a finalizer). */
typedef const struct OpaqueJSWeak *JSWeakRef;
JSWeakRef JSWeakCreate(JSContextGroupRef group, JSObjectRef object);
void JSWeakRelease(JSContextGroupRef group, JSWeakRef weak);
JSObjectRef JSWeakGetObject(JSWeakRef weak);

/* A full, synchronous collection followed by a sweep of everything,
 * including JSC's "logically empty" weak blocks (see jb_flush). Takes the
 * VM lock. */
void JSSynchronousGarbageCollectForDebugging(JSContextRef ctx);

/* Called at the end of every collection of the group (eden or full), with
 * the world stopped, after weak handles of dead objects were cleared: no JSC
 * call is allowed in it. */
typedef void (*JSHeapFinalizer)(JSContextGroupRef group, void *userData);
void JSContextGroupAddHeapFinalizer(JSContextGroupRef group, JSHeapFinalizer finalizer, void *userData);
void JSContextGroupRemoveHeapFinalizer(JSContextGroupRef group, JSHeapFinalizer finalizer, void *userData);

/* Tells the GC about memory held outside the JS heap. */
void JSReportExtraMemoryCost(JSContextRef ctx, size_t size);

/* A new object describing ctx's heap: heapSize (bytes of cells not yet
 * collected plus extraMemorySize), heapCapacity, extraMemorySize,
 * objectCount... Walks the whole heap (objectCount, objectTypeCounts):
 * O(heap), tens of milliseconds for a million objects. VM lock held. */
JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

/* JSObjectRefPrivate.h: the target of a Proxy (any realm) or of the global
 * object's proxy; NULL for any other object. Inside the gate. */
JSObjectRef JSObjectGetProxyTarget(JSObjectRef obj);

/*
 * Three C++ member functions of JSC that WebKit exports for WebCore
 * (JS_EXPORT_PRIVATE) and libjavascriptcoregtk exports too, called here
 * with the C ABI (the object as the first argument). The C API's handles
 * are these objects (WebKit's APICast.h): a JSContextGroupRef is the
 * JSC::VM, a JSContextRef the JSC::JSGlobalObject. All three need the VM
 * lock. Checked on JavaScriptCore 2.50; a JSC whose signatures change
 * fails to link here, by name.
 */
/* JSC::VM::drainMicrotasks(): runs the promise jobs queued so far (and the
 * unhandled-rejection callback). Inside a VM entry, each job is a nested
 * call, so the watchdog's clock runs across them; a pending termination
 * makes it drop the whole queue without running a job. */
void _ZN3JSC2VM15drainMicrotasksEv(void *vm);
/* JSC::VM::ensureTerminationException(): the VM's one termination
 * exception (a JSC::Exception cell), made on first use. */
void *_ZN3JSC2VM26ensureTerminationExceptionEv(void *vm);
/* JSC::VM::throwException(JSGlobalObject*, Exception*): makes the
 * exception the VM's pending one. */
void *_ZN3JSC2VM14throwExceptionEPNS_14JSGlobalObjectEPNS_9ExceptionE(void *vm, void *global,
                                                                    void *exception);

/* Runs the microtask queue of ctx's VM. VM lock held. */
static inline void strait__jsc_drain_microtasks(JSContextRef ctx) {
  _ZN3JSC2VM15drainMicrotasksEv((void *)JSContextGetGroup(ctx));
}

/* Makes the VM's termination pending, as its watchdog does: thrown from a
 * host callback, it unwinds every JS frame up to the outermost entry when
 * the callback returns, and no catch, finally or wasm catch_all runs on
 * the way. VM lock held, inside a host callback. */
static inline void strait__jsc_throw_termination(JSContextRef ctx) {
  void *vm = (void *)JSContextGetGroup(ctx);
  void *global = (void *)JSContextGetGlobalContext(ctx);
  _ZN3JSC2VM14throwExceptionEPNS_14JSGlobalObjectEPNS_9ExceptionE(
      vm, global, _ZN3JSC2VM26ensureTerminationExceptionEv(vm));
}


#ifdef __cplusplus
}
#endif
#endif /* STRAIT_JSC_PRIVATE_H */
