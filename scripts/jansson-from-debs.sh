# shellcheck shell=bash
# Sourced by scripts/device.sh: the GPU machine has no libjansson and no package registry, so the
# Debian packages travel in .debs/ (libjansson4 and libjansson-dev, from `apt-get download`) and are
# unpacked into the prefix $1 with python3 (no dpkg needed); CMake then finds them through
# CMAKE_PREFIX_PATH. Does nothing when the machine has jansson.h; returns 1 without the .debs.
[ -f /usr/include/jansson.h ] && return 0
ls .debs/libjansson4_*.deb .debs/libjansson-dev_*.deb > /dev/null || return 1
python3 - "$1" .debs/libjansson4_*.deb .debs/libjansson-dev_*.deb <<'PY' || return 1
import io, sys, tarfile
prefix = sys.argv[1]
for deb in sys.argv[2:]:
    data = open(deb, "rb").read()
    assert data[:8] == b"!<arch>\n", deb
    pos = 8
    while pos < len(data):  # ar members: 60-byte header, then the body padded to even length
        name, size = data[pos:pos + 16].decode().strip(), int(data[pos + 48:pos + 58])
        body = data[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            tarfile.open(fileobj=io.BytesIO(body)).extractall(prefix)
        pos += 60 + size + (size & 1)
print("unpacked libjansson into", prefix)
PY
# the .pc file names /usr; point it at the prefix so pkg-config (through CMake) gives the right paths
sed -i "s#^prefix=/usr\$#prefix=$1/usr#" "$1"/usr/lib/x86_64-linux-gnu/pkgconfig/jansson.pc
export CMAKE_PREFIX_PATH=$1/usr
export LD_LIBRARY_PATH=$1/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
