# ncurses: the wide-character library and its tinfo part, static, with the
# host's terminfo database at run time; no programs, C++ or Ada bindings.
pkg_source=ncurses
pkg_build() {
	./configure --prefix="$PREFIX" --without-shared --with-normal \
		--without-debug --without-cxx --without-cxx-binding --without-ada \
		--without-progs --without-tests --without-manpages --enable-widec \
		--with-termlib --enable-pc-files --with-pkg-config-libdir="$PREFIX/lib/pkgconfig" \
		--disable-db-install --with-default-terminfo-dir=/usr/share/terminfo \
		--with-terminfo-dirs=/etc/terminfo:/lib/terminfo:/usr/share/terminfo \
		--disable-stripping &&
	make -j"$JOBS" libs
}
pkg_install() {
	make install.libs install.includes 2>/dev/null || make install.libs
	# programs that ask for -lncurses or -ltinfo get the wide libraries;
	# -lncurses brings tinfo along (a linker script, as distributions'
	# libncurses.so is), since configure scripts look for tgetent in it
	for l in ncurses tinfo; do
		[ -f "$PREFIX/lib/pkgconfig/${l}w.pc" ] && ln -sf "${l}w.pc" "$PREFIX/lib/pkgconfig/$l.pc"
	done
	ln -sf libtinfow.a "$PREFIX/lib/libtinfo.a"
	rm -f "$PREFIX/lib/libncurses.a"
	echo "GROUP ( $PREFIX/lib/libncursesw.a $PREFIX/lib/libtinfow.a )" > "$PREFIX/lib/libncurses.a"
	# headers: <curses.h> and <ncurses.h> at the top, as distributions do
	if [ -d "$PREFIX/include/ncursesw" ]; then
		for h in "$PREFIX"/include/ncursesw/*.h; do
			ln -sf "ncursesw/$(basename "$h")" "$PREFIX/include/$(basename "$h")"
		done
	fi
	return 0
}
