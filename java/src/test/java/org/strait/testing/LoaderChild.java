package org.strait.testing;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.strait.JsRuntime;
import org.strait.internal.NativeLoader;

/**
 * The JVM NativeLoaderTest starts and kills (its own java.io.tmpdir; only
 * strait.jar and the test classes on its class path, so the library comes
 * from the jar). Modes: {@code exit} loads strait, runs JS and exits;
 * {@code wait} loads and then sleeps; {@code run} loads and keeps running
 * JS; {@code lock FILE} makes FILE and holds an exclusive lock on it, as a
 * loader does while it extracts (a live loader in the middle of its
 * extraction), without loading anything. Prints {@code loaded PATH} or
 * {@code locked} when it got there.
 */
public final class LoaderChild {
    private LoaderChild() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("lock")) {
            try (FileChannel ch = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE); FileLock lock = ch.lock()) {
                ch.write(ByteBuffer.wrap(new byte[4096]));
                System.out.println("locked");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            return;
        }
        try (JsRuntime rt = JsRuntime.create()) {
            Object two = rt.eval("1 + 1");
            System.out.println("loaded " + NativeLoader.loadedFrom() + " " + two);
            System.out.flush();
            if (mode.equals("wait")) Thread.sleep(Long.MAX_VALUE);
            if (mode.equals("run")) {
                for (;;) rt.eval("(() => { let s = 0; for (let i = 0; i < 100000; i++) s += i; return s; })()");
            }
        }
    }
}
