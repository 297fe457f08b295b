"""check_device.py - check a device's results against accel's reference runner, layer by layer.

    /usr/bin/python3 check_device.py MODEL.tflite IN.bin DEVICE.bin

IN.bin: the graph inputs' bytes back to back (several IN.bin joined with "+": consecutive
invocations without reset). DEVICE.bin: what the device (an accelerator, a simulator, another
runtime) gave for the last invocation: every operator's output in execution order (the layout of
`accel-run --layers`: a dump of the device's intermediate tensors), or only the graph's outputs.
Prints each layer's comparison and the first layer that diverges; exit status 0 when all agree,
3 when one differs, 1 on a bad model or file. Needs the `accel` package (ports/python).
"""
import sys

import numpy as np

from accel.tflite import Interpreter, AccelError


def reference(model, inputs):
    """An Interpreter after invoking model on each input blob in turn (no reset between)."""
    interp = Interpreter(model_path=model)
    interp.allocate_tensors()
    details = interp.get_input_details()
    for blob in inputs:
        off = 0
        for d in details:
            dt = np.dtype(d["dtype"]).newbyteorder("<")
            n = int(np.prod(d["shape"]))
            if off + n * dt.itemsize > len(blob):
                raise ValueError("%d input bytes, the model's inputs take more" % len(blob))
            interp.set_tensor(d["index"], np.frombuffer(blob, dt, n, off).astype(d["dtype"]).reshape(d["shape"]))
            off += n * dt.itemsize
        if off != len(blob):
            raise ValueError("%d input bytes, the model's inputs take %d" % (len(blob), off))
        interp.invoke()
    return interp


def check(interp, device):
    """(first, lines): the first diverging Layer (None: the device agrees) and a report line per
    layer (or one for the outputs when device holds only them)."""
    if len(device) == len(interp.layer_bytes()):
        first, reports = interp.compare_layers(device)
        lines = ["layer %3d %-28s %-40s %s" % (L.op_index, L.op, L.name[:40], str(r)[len("compare: "):])
                 for L, r in reports]
        if first is not None:
            lines.append("first diverging layer: operator %d %s, tensor %d %r (%s %s)" % (
                first.op_index, first.op, first.tensor_index, first.name, first.type, list(first.shape)))
        return first, lines
    r = interp.compare(device)         # the outputs only: no layer to point at
    return (None if r.exact else "outputs"), [str(r)]


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    try:
        inputs = []
        for path in argv[2].split("+"):
            with open(path, "rb") as f:
                inputs.append(f.read())
        with open(argv[3], "rb") as f:
            device = f.read()
        first, lines = check(reference(argv[1], inputs), device)
    except (AccelError, ValueError, OSError) as e:
        sys.stderr.write("check_device: %s\n" % e)
        return 1
    print("\n".join(lines))
    print("device agrees with the reference" if first is None else "device differs")
    return 0 if first is None else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
