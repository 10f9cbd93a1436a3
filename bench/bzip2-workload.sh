# bzip2-workload.sh: sourced by the benches.  bzip2_workload BUILD_DIR MB
# puts bzip2's source (Debian's package, downloaded once and cached in
# BUILD_DIR/projects/bzip2 like the project test's) in ./bzsrc and MB
# megabytes of deterministic input (its sources and numbers) in
# ./bz.input.  Needs $repo and die().
bzip2_workload() {
	bzdir=$1/projects/bzip2
	tarball=$(ls "$bzdir"/download/bzip2_*.orig.tar.* 2>/dev/null | head -n 1 || true)
	if [ -z "$tarball" ]; then
		"$repo/scripts/apt-source.sh" bzip2 "$bzdir" >/dev/null || die "cannot download bzip2's source"
		tarball=$(ls "$bzdir"/download/bzip2_*.orig.tar.* | head -n 1)
	fi
	mkdir bzsrc && tar -xf "$tarball" -C bzsrc --strip-components=1
	i=0
	: > bz.in
	while [ "$(wc -c < bz.in)" -lt $(($2 * 1048576)) ]; do
		cat bzsrc/*.c bzsrc/*.h bzsrc/*.ref >> bz.in
		seq $((i * 7919)) 7 $((i * 7919 + 400000)) >> bz.in
		i=$((i + 1))
	done
	head -c $(($2 * 1048576)) bz.in > bz.input && rm bz.in
}
