import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;

/**
 * A build step (Makefile, strait.jar): copies the classes of ASM's core jar
 * (Debian's libasm-java, /usr/share/java/asm.jar) into a directory with the
 * package org.objectweb.asm renamed to org.strait.internal.asm, using ASM's
 * own ClassRemapper, so the copy inside strait.jar never clashes with an
 * application's ASM and stays inside the module's unexported packages.
 * Run as a source-file program:
 * {@code java -cp asm.jar:asm-commons.jar tools/RelocateAsm.java asm.jar OUT_DIR}.
 */
public final class RelocateAsm {
    private static final String FROM = "org/objectweb/asm/";
    private static final String TO = "org/strait/internal/asm/";

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: RelocateAsm ASM_JAR OUT_DIR");
            System.exit(2);
        }
        Path out = Path.of(args[1]);
        Remapper remapper = new Remapper() {
            @Override
            public String map(String name) {
                return name.startsWith(FROM) ? TO + name.substring(FROM.length()) : name;
            }
        };
        int n = 0;
        try (JarFile jar = new JarFile(args[0])) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                String name = entry.getName();
                if (!name.startsWith(FROM) || !name.endsWith(".class")) continue;
                byte[] bytes;
                try (InputStream in = jar.getInputStream(entry)) {
                    bytes = in.readAllBytes();
                }
                ClassReader reader = new ClassReader(bytes);
                ClassWriter writer = new ClassWriter(0);
                reader.accept(new ClassRemapper(writer, remapper), 0);
                Path target = out.resolve(TO + name.substring(FROM.length()));
                Files.createDirectories(target.getParent());
                Files.write(target, writer.toByteArray());
                n++;
            }
        }
        if (n == 0) throw new IllegalStateException("no ASM classes found in " + args[0]);
    }
}
