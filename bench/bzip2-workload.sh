# bzip2-workload.sh: sourced by the benches.  bzip2_workload BUILD_DIR MB
# puts bzip2's source (Debian's package, downloaded once and cached in
# BUILD_DIR/projects/bzip2 like the project test's) in ./bzsrc and MB
# megabytes of deterministic input (its sources and numbers) in
# ./bz.input.  Needs $repo and die().
bzip2_workload() {
	. "$repo/bench/project-source.sh"
	project_source bzip2 "$1" bzsrc
	i=0
	: > bz.in
	while [ "$(wc -c < bz.in)" -lt $(($2 * 1048576)) ]; do
		cat bzsrc/*.c bzsrc/*.h bzsrc/*.ref >> bz.in
		seq $((i * 7919)) 7 $((i * 7919 + 400000)) >> bz.in
		i=$((i + 1))
	done
	head -c $(($2 * 1048576)) bz.in > bz.input && rm bz.in
}
