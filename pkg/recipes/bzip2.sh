# bzip2 1.0.8: a plain Makefile; no pkg-config file upstream, so one here.
pkg_build() { make -j"$JOBS" CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" libbz2.a bzip2; }
pkg_check() { make CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" check; }
pkg_install() {
	mkdir -p "$PREFIX/include" "$PREFIX/lib" &&
	cp bzlib.h "$PREFIX/include/" && cp libbz2.a "$PREFIX/lib/"
}
pkg_pc() {
	cat > "$PREFIX/lib/pkgconfig/bzip2.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: bzip2
Description: bzip2 compression library (instrumented by rdb-cc)
Version: 1.0.8
Libs: -L\${libdir} -lbz2
Cflags: -I\${includedir}
PC
}
