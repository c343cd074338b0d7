#!/usr/bin/env python3
"""Sets or prints the input height of a Tesseract LSTM network (a .lstm component, float or
integer; printing also reads a whole .traineddata).

  /usr/bin/python3 training/kor/input_height.py NETWORK.lstm 48
  /usr/bin/python3 training/kor/input_height.py MODEL.traineddata      # prints 36 or 48

The pen-ink network reads lines scaled to 36 pixels ([1,36,0,1 Ct3,3,16 Mp3,3 Lfys48 ...]):
a Hangul syllable gets about 23 rows, its final consonant and the ticks of its vowel a few
pixels. None of its weights depends on that height (the 3x3 convolution and pooling slide over
any height, and Lfys48 summarises each column whatever its length), so the same network reads a
taller line once its Input layer says so; it then needs training on lines drawn that tall
(`train-kor.sh` with INPUT_HEIGHT, which also draws the lines that tall). Changes the two numbers that hold the
height (the Input layer's input size and its shape) and nothing else; checks both first.
"""
import struct
import sys


def set_input_height(data, height):
    """`data` (bytes of a serialized network) with its Input layer's height set to `height`
    (None: unchanged), and the height it had."""
    name = struct.pack("<i", 5) + b"Input"
    start = data.find(name)
    if start < 0:
        raise ValueError("no Input layer")
    # Network::Serialize: type name, training and needs_backprop bytes, network flags, ni, no,
    # number of weights, layer name; then Input's StaticShape: batch, height, width, depth.
    ni_at = start + len(name) + 2 + 4
    ni, no, weights = struct.unpack_from("<3i", data, ni_at)
    after = ni_at + 12
    if data[after:after + len(name)] != name:
        raise ValueError("unexpected Input layer layout")
    shape_at = after + len(name)
    batch, old, width, depth = struct.unpack_from("<4i", data, shape_at)
    if ni != old or weights != 0 or depth != 1:
        raise ValueError("unexpected Input layer: ni %d, shape %s" % (ni, (batch, old, width, depth)))
    if height is None:
        return data, old
    out = bytearray(data)
    struct.pack_into("<i", out, ni_at, height)
    struct.pack_into("<i", out, shape_at + 4, height)
    return bytes(out), old


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = f.read()
    if len(sys.argv) == 2:
        print(set_input_height(data, None)[1])
        return
    height = int(sys.argv[2])
    patched, old = set_input_height(data, height)
    with open(path, "wb") as f:
        f.write(patched)
    print("%s: input height %d -> %d" % (path, old, height))


if __name__ == "__main__":
    main()
