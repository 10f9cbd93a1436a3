# zlib-workload.sh: sourced by bench/record.sh.  zlib_source BUILD_DIR
# puts zlib's source (Debian's package, downloaded once and cached in
# BUILD_DIR/projects/zlib like the project test's) in ./zsrc; the workload
# is minigzip -9 on bzip2_workload's input.  Needs $repo and die().
zlib_source() {
	zdir=$1/projects/zlib
	tarball=$(ls "$zdir"/download/zlib_*.orig.tar.* 2>/dev/null | head -n 1 || true)
	if [ -z "$tarball" ]; then
		"$repo/scripts/apt-source.sh" zlib "$zdir" >/dev/null || die "cannot download zlib's source"
		tarball=$(ls "$zdir"/download/zlib_*.orig.tar.* | head -n 1)
	fi
	mkdir zsrc && tar -xf "$tarball" -C zsrc --strip-components=1
}
