# readline 8.2 on ncurses' tinfo.
pkg_source=readline
pkg_deps=ncurses
pkg_build() {
	./configure --prefix="$PREFIX" --disable-shared --enable-static \
		--with-curses bash_cv_termcap_lib=libtinfo &&
	make -j"$JOBS" static
}
pkg_install() { make install-static install-headers 2>/dev/null || make install-static; }
pkg_pc() {
	[ -f "$PREFIX/lib/pkgconfig/readline.pc" ] && return 0
	cat > "$PREFIX/lib/pkgconfig/readline.pc" <<PC
prefix=$PREFIX
libdir=\${prefix}/lib
includedir=\${prefix}/include
Name: Readline
Description: GNU readline (instrumented by rdb-cc)
Version: 8.2
Requires.private: tinfo
Libs: -L\${libdir} -lreadline
Libs.private: -ltinfo
Cflags: -I\${includedir}
PC
}
