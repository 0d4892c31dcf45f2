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

/* Tells the GC about memory held outside the JS heap. */
void JSReportExtraMemoryCost(JSContextRef ctx, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* STRAIT_JSC_PRIVATE_H */
