# project-source.sh: sourced by the benches.  project_source PACKAGE
# BUILD_DIR DEST unpacks Debian's source of PACKAGE (its orig tarball,
# downloaded once and cached in BUILD_DIR/projects/PACKAGE like the
# project tests') into the new folder DEST.  Needs $repo and die().
project_source() {
	pdir=$2/projects/$1
	tarball=$(ls "$pdir"/download/"$1"_*.orig.tar.* 2>/dev/null | head -n 1 || true)
	if [ -z "$tarball" ]; then
		"$repo/scripts/apt-source.sh" "$1" "$pdir" >/dev/null || die "cannot download $1's source"
		tarball=$(ls "$pdir"/download/"$1"_*.orig.tar.* | head -n 1)
	fi
	mkdir "$3" && tar -xf "$tarball" -C "$3" --strip-components=1
}
