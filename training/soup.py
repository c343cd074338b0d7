#!/usr/bin/env python3
"""Average the weights of Tesseract float networks of one shape (a "model soup").

  python3 training/soup.py OUT.lstm IN1.lstm IN2.lstm ...

The inputs are float recognizers of the same network (`combine_tessdata -e X.traineddata
X.lstm`, e.g. of `lstmtraining --stop_training` conversions of checkpoints of one run). Each
weight matrix is a GENERIC_2D_ARRAY<double> right after its WeightMatrix mode byte (which has
kDoubleFlag, 0x80): uint32 dim1, uint32 dim2, one double (the array's empty value), then dim1 *
dim2 doubles. The matrices are found in the first input by that header, and each element that
differs between the inputs is replaced by the mean; every other byte (layer headers, names,
training counters) is the first input's. The number of weights found is printed, to compare with
the network's own count (Network::num_weights). `training/train.sh candidates` then converts OUT
to an integer model with the dictionary (CANDIDATES=OUT.lstm).
"""
import math
import struct
import sys


def plausible(x):
    return math.isfinite(x) and (x == 0 or 1e-30 < abs(x) < 1e4)


def weight_arrays(data, inputs):
    """(start of the doubles, count) of every weight matrix, in file order."""
    arrays, i, n = [], 1, len(data)
    while i < n - 16:
        d1, d2 = struct.unpack_from("<II", data, i)
        size = d1 * d2
        if (data[i - 1] & 0x80 and 1 <= d1 <= 5000 and 1 <= d2 <= 5000 and size >= 8
                and i + 16 + size * 8 <= n and all(f[i:i + 16] == data[i:i + 16] for f in inputs)):
            values = struct.unpack_from(f"<{size}d", data, i + 16)
            if sum(map(plausible, values)) >= 0.99 * size and sum(v != 0 for v in values) >= 0.5 * size:
                arrays.append((i + 16, size))
                i += 16 + size * 8
                continue
        i += 1
    return arrays


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    inputs = [open(p, "rb").read() for p in paths]
    first = inputs[0]
    if any(len(f) != len(first) for f in inputs):
        sys.exit("soup.py: the networks differ in size, so not in shape")
    result = bytearray(first)
    arrays = weight_arrays(first, inputs)
    for start, size in arrays:
        columns = [struct.unpack_from(f"<{size}d", f, start) for f in inputs]
        mean = [v[0] if min(v) == max(v) else sum(v) / len(v) for v in zip(*columns)]
        struct.pack_into(f"<{size}d", result, start, *mean)
    with open(out, "wb") as f:
        f.write(result)
    print(f"{out}: {len(arrays)} weight matrices, {sum(s for _, s in arrays)} weights, "
          f"the mean of {len(inputs)} networks")


if __name__ == "__main__":
    main()
