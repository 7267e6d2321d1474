#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Trains ishi's Go value network with PyTorch, where a GPU is at hand, and writes ishi's own
weight file (`ISHINN`, kind `go-value`, `src/nn/file.rs`), which the engine loads with
`--value-network FILE` and `ishi-train --evaluate-value-network FILE` measures.

The same network as `src/go/search/value.rs` (a 3x3 stem, residual blocks of two 3x3
convolutions, with `pooled` in the file each block's second convolution biased by a linear
map of its inner layer's mean, mean times (sqrt(points) - 14) / 10 and maximum over the board
(`src/nn/pool.rs`), each channel's mean and maximum pooled into one rectified hidden layer with
the win logit, the score lead / 20 and the pass logit; 1x1 ownership and policy heads), the
same loss as `src/go/learn/value_fit.rs` (the win probability's cross-entropy, ownership's
cross-entropy averaged over the points with the owner's probability the logistic of twice
the logit, the score's Huber loss in units of 20 points, the moves' cross-entropy over the
candidates), AdamW decaying linearly to a tenth, one of the eight symmetries drawn per
sample, batches of one board size. It reads the samples `ishi-train --export-samples DIR`
writes (the same positions and split as ishi's trainer), so the held-out figures it prints
are on the same positions as `ishi-train`'s.

    ishi-train --data A.ishigames.gz --data B.ishigames.gz --network-size 9,13,19 \\
        --export-samples samples
    python3 scripts/train/torch_value.py --samples samples --out value.bin \\
        [--start-from models/go-value.bin] [--blocks 4 --channels 64] [--pooling] [--epochs 20] \\
        [--device cuda]
    python3 scripts/train/torch_value.py --samples samples --evaluate models/go-value.bin

Needs PyTorch and NumPy. Prints its report on stdout.
"""
import argparse
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

MAGIC = b"ISHINN"
VERSION = 1
KIND = "go-value"


def read_weights(path):
    """The dimensions (a dict, in the file's order) and the parameters of an ISHINN file."""
    data = open(path, "rb").read()
    if not data.startswith(MAGIC):
        raise SystemExit(f"{path}: not an ishi network file (ISHINN)")
    at = len(MAGIC)

    def take(count):
        nonlocal at
        if at + count > len(data):
            raise SystemExit(f"{path}: the file ends inside a field")
        field = data[at:at + count]
        at += count
        return field

    def u16():
        return struct.unpack("<H", take(2))[0]

    def text():
        return take(u16()).decode("utf-8")

    version = u16()
    if version != VERSION:
        raise SystemExit(f"{path}: format version {version}, this script reads {VERSION}")
    kind = text()
    if kind != KIND:
        raise SystemExit(f"{path}: a {kind} network, not a {KIND} one")
    dimensions = {}
    for _ in range(u16()):
        name = text()
        dimensions[name] = struct.unpack("<I", take(4))[0]
    count = struct.unpack("<I", take(4))[0]
    if at + 4 * count != len(data):
        raise SystemExit(f"{path}: {len(data) - at} bytes of parameters for {count}")
    parameters = np.frombuffer(data, dtype="<f4", count=count, offset=at).copy()
    return dimensions, parameters


def write_weights(path, dimensions, parameters):
    """Writes an ISHINN file (as `WeightFile::to_bytes`), whole or not at all."""
    parameters = np.asarray(parameters, dtype="<f4")
    if not np.all(np.isfinite(parameters)):
        raise SystemExit("a parameter is not finite")
    out = bytearray(MAGIC)
    out += struct.pack("<H", VERSION)
    out += struct.pack("<H", len(KIND)) + KIND.encode()
    out += struct.pack("<H", len(dimensions))
    for name, value in dimensions.items():
        out += struct.pack("<H", len(name)) + name.encode() + struct.pack("<I", value)
    out += struct.pack("<I", parameters.size) + parameters.tobytes()
    with open(path + ".tmp", "wb") as handle:
        handle.write(out)
    os.replace(path + ".tmp", path)


class ValueNet(nn.Module):
    """ishi's value network (see the module's docstring)."""

    def __init__(self, inputs, channels, blocks, hidden, pooled=False):
        super().__init__()
        self.inputs, self.channels, self.blocks, self.hidden_units = inputs, channels, blocks, hidden
        self.pooled = pooled
        self.stem = nn.Conv2d(inputs, channels, 3, padding=1)
        self.convolutions = nn.ModuleList(
            nn.Conv2d(channels, channels, 3, padding=1) for _ in range(2 * blocks))
        # Each block's pooling weights [3 * channels][channels], zero at first as ishi's.
        self.pooling = nn.ModuleList(
            nn.Linear(3 * channels, channels, bias=False) for _ in range(blocks if pooled else 0))
        with torch.no_grad():
            for linear in self.pooling:
                linear.weight.zero_()
        self.hidden = nn.Linear(2 * channels, hidden)
        self.win = nn.Linear(hidden, 1)
        self.score = nn.Linear(hidden, 1)
        self.ownership = nn.Conv2d(channels, 1, 1)
        self.policy = nn.Conv2d(channels, 1, 1)
        self.pass_move = nn.Linear(hidden, 1)

    def forward(self, planes):
        """`planes` [batch][inputs][size][size]: the win logit, the score (lead / 20), the
        pass logit, the ownership logits and the move logits ([batch][points])."""
        trunk = F.relu(self.stem(planes))
        points = planes.shape[2] * planes.shape[3]
        for block in range(self.blocks):
            inner = F.relu(self.convolutions[2 * block](trunk))
            second = self.convolutions[2 * block + 1](inner)
            if self.pooled:
                mean = inner.mean(dim=(2, 3))
                features = torch.cat([mean, mean * ((math.sqrt(points) - 14.0) / 10.0),
                                      inner.amax(dim=(2, 3))], dim=1)
                second = second + self.pooling[block](features)[:, :, None, None]
            trunk = F.relu(second + trunk)
        pooled = torch.cat([trunk.mean(dim=(2, 3)), trunk.amax(dim=(2, 3))], dim=1)
        hidden = F.relu(self.hidden(pooled))
        return (self.win(hidden)[:, 0], self.score(hidden)[:, 0], self.pass_move(hidden)[:, 0],
                self.ownership(trunk).flatten(1), self.policy(trunk).flatten(1))

    # The parameter vector's order (`ValueShape::head`, `Shape::convolutions`): each 3x3
    # convolution's weights [9 * inputs][outputs] (offsets row by row from the upper left,
    # the input channels within) then its biases; in a pooled network each block's pooling
    # weights [3 * channels][channels]; the hidden layer's weights [2 * channels]
    # [hidden] and biases; the win output's weights and bias, the score's, the ownership
    # convolution's, the policy convolution's, the pass output's.
    def _pieces(self):
        pieces = []
        for convolution in [self.stem, *self.convolutions]:
            weight = convolution.weight  # [out][in][3][3]
            pieces.append((weight, lambda w: w.permute(2, 3, 1, 0).reshape(-1, w.shape[0]),
                           lambda flat, w: flat.reshape(3, 3, w.shape[1], w.shape[0]).permute(3, 2, 0, 1)))
            pieces.append((convolution.bias, None, None))
        for linear in self.pooling:
            pieces.append((linear.weight, lambda w: w.t(), lambda flat, w: flat.reshape(w.shape[1], w.shape[0]).t()))
        pieces.append((self.hidden.weight, lambda w: w.t(), lambda flat, w: flat.reshape(w.shape[1], w.shape[0]).t()))
        pieces.append((self.hidden.bias, None, None))
        for output in (self.win, self.score):
            pieces.append((output.weight, None, None))
            pieces.append((output.bias, None, None))
        for point_head in (self.ownership, self.policy):
            pieces.append((point_head.weight, None, None))
            pieces.append((point_head.bias, None, None))
        pieces.append((self.pass_move.weight, None, None))
        pieces.append((self.pass_move.bias, None, None))
        return pieces

    def to_vector(self):
        flat = []
        for tensor, to_file, _ in self._pieces():
            value = tensor.detach().float().cpu()
            flat.append((to_file(value) if to_file else value).reshape(-1))
        return torch.cat(flat).numpy()

    def load_vector(self, vector):
        vector = torch.as_tensor(np.asarray(vector, dtype=np.float32))
        at = 0
        with torch.no_grad():
            for tensor, _, from_file in self._pieces():
                count = tensor.numel()
                flat = vector[at:at + count]
                at += count
                value = from_file(flat, tensor) if from_file else flat.reshape(tensor.shape)
                tensor.copy_(value.to(tensor.device))
        if at != vector.numel():
            raise SystemExit(f"{vector.numel()} parameters, the network has {at}")


def network_from(dimensions, vector):
    """The network a weight file describes, its parameters loaded."""
    model = ValueNet(dimensions["inputs"], dimensions["channels"], dimensions["blocks"], dimensions["hidden"],
                     pooled=bool(dimensions.get("pooled", 0)))
    model.load_vector(vector)
    return model


def load_split(directory, manifest, split):
    """Each board size's arrays of one split: {size: dict of tensors}."""
    groups = {}
    for entry in manifest["arrays"]:
        if entry["split"] != split or entry["positions"] == 0:
            continue
        size = entry["size"]

        def array(name):
            return np.load(os.path.join(directory, f"{split}-{size}x{size}-{name}.npy"))

        planes = array("planes")  # [N][points][planes]
        count, points, planes_count = planes.shape
        groups[size] = {
            "planes": torch.from_numpy(planes.reshape(count, size, size, planes_count)),
            "komi": torch.from_numpy(array("komi")),
            "win": torch.from_numpy(array("win")),
            "lead": torch.from_numpy(array("lead")),
            "ownership": torch.from_numpy(array("ownership").astype(np.float32) / 200.0 + 0.5),
            "has_ownership": torch.from_numpy(array("has-ownership").astype(bool)),
            "policy": torch.from_numpy(array("policy")),
        }
    return groups


def symmetry(tensor, which):
    """One of the eight symmetries of the square in the last two dimensions."""
    if which & 1:
        tensor = tensor.flip(-1)
    if which & 2:
        tensor = tensor.flip(-2)
    if which & 4:
        tensor = tensor.transpose(-1, -2)
    return tensor


def batch_tensors(group, indices, size, device, symmetries=None):
    """The network's input and the targets of `indices`, each sample under its symmetry."""
    planes = group["planes"][indices].to(device).float().permute(0, 3, 1, 2)
    komi = group["komi"][indices].to(device)
    count = planes.shape[0]
    komi_plane = komi.view(count, 1, 1, 1).expand(count, 1, size, size)
    inputs = torch.cat([planes, komi_plane], dim=1)
    ownership = group["ownership"][indices].to(device).view(count, size, size)
    policy = group["policy"][indices].to(device)
    point_policy = policy[:, :-1].reshape(count, size, size)
    if symmetries is not None:
        inputs, ownership, point_policy = inputs.clone(), ownership.clone(), point_policy.clone()
        for which in range(1, 8):
            chosen = symmetries == which
            if chosen.any():
                inputs[chosen] = symmetry(inputs[chosen], which)
                ownership[chosen] = symmetry(ownership[chosen], which)
                point_policy[chosen] = symmetry(point_policy[chosen], which)
    policy = torch.cat([point_policy.reshape(count, -1), policy[:, -1:]], dim=1)
    return {
        "inputs": inputs,
        "win": group["win"][indices].to(device),
        "lead": group["lead"][indices].to(device),
        "ownership": ownership.reshape(count, -1),
        "has_ownership": group["has_ownership"][indices].to(device),
        "policy": policy,
    }


def losses(outputs, batch, score_scale):
    """Per sample: the win cross-entropy, the score's Huber loss (0 where not given), the
    moves' cross-entropy (0 where not given) and the ownership's mean cross-entropy (0 where
    not given), with the masks of what was given."""
    win_logit, score, pass_logit, ownership_logits, policy_logits = outputs
    win = F.binary_cross_entropy_with_logits(win_logit, batch["win"], reduction="none")
    has_lead = ~torch.isnan(batch["lead"])
    error = score - torch.nan_to_num(batch["lead"]) / score_scale
    huber = torch.where(error.abs() <= 1.0, 0.5 * error * error, error.abs() - 0.5) * has_lead
    target = batch["policy"]
    candidate = target >= 0
    logits = torch.cat([policy_logits, pass_logit[:, None]], dim=1)
    logits = logits.masked_fill(~candidate, float("-inf"))
    has_policy = candidate.any(dim=1)
    log_probabilities = torch.log_softmax(logits.masked_fill(~has_policy[:, None], 0.0), dim=1)
    weights = target.clamp(min=0.0)
    moves = -(weights * log_probabilities.masked_fill(~candidate, 0.0)).sum(dim=1)
    owners = F.binary_cross_entropy_with_logits(
        2.0 * ownership_logits, batch["ownership"], reduction="none").mean(dim=1)
    owners = owners * batch["has_ownership"]
    return win, huber, moves, owners, logits


def evaluate(model, groups, device, score_scale, batch_size=1024):
    """Held-out figures per size, as `ishi-train` reports them: the win probability's
    cross-entropy, agreement on the side ahead (where the teacher is not within 0.05 of
    even), the score lead's mean absolute error in
    points, the teacher's first choice first."""
    figures = {}
    model.eval()
    with torch.no_grad():
        for size, group in sorted(groups.items()):
            count = group["win"].shape[0]
            totals = {"entropy": 0.0, "ahead": 0, "decided": 0, "lead_error": 0.0, "leads": 0, "top": 0, "moves": 0}
            for start in range(0, count, batch_size):
                indices = torch.arange(start, min(count, start + batch_size), device=group["win"].device)
                batch = batch_tensors(group, indices, size, device)
                outputs = model(batch["inputs"])
                win, _, _, _, logits = losses(outputs, batch, score_scale)
                totals["entropy"] += win.double().sum().item()
                probability = torch.sigmoid(outputs[0])
                # As ishi-train: positions the teacher calls within 0.45 to 0.55 left out.
                decided = (batch["win"] - 0.5).abs() > 0.05
                totals["ahead"] += (((probability > 0.5) == (batch["win"] > 0.5)) & decided).sum().item()
                totals["decided"] += decided.sum().item()
                has_lead = ~torch.isnan(batch["lead"])
                totals["lead_error"] += ((outputs[1] * score_scale - batch["lead"]).abs()[has_lead]).double().sum().item()
                totals["leads"] += has_lead.sum().item()
                has_policy = (batch["policy"] >= 0).any(dim=1)
                agree = logits.argmax(dim=1) == batch["policy"].argmax(dim=1)
                totals["top"] += (agree & has_policy).sum().item()
                totals["moves"] += has_policy.sum().item()
            figures[size] = {
                "positions": count,
                "cross_entropy": totals["entropy"] / max(1, count),
                "ahead": totals["ahead"] / max(1, totals["decided"]),
                "lead_error": totals["lead_error"] / max(1, totals["leads"]),
                "top1": totals["top"] / max(1, totals["moves"]),
            }
    return figures


def report(label, figures):
    for size, figure in sorted(figures.items()):
        print(f"{label} {size}x{size}: {figure['positions']} positions, cross-entropy "
              f"{figure['cross_entropy']:.4f}, agrees on the side ahead {100 * figure['ahead']:.1f}%, "
              f"score lead off by {figure['lead_error']:.2f} points, the teacher's first choice "
              f"first {100 * figure['top1']:.1f}%", flush=True)


def mean_entropy(figures):
    positions = sum(figure["positions"] for figure in figures.values())
    return sum(figure["cross_entropy"] * figure["positions"] for figure in figures.values()) / max(1, positions)


def board_mask(sizes):
    mask = 0
    for size in sizes:
        mask |= 1 << size
    return mask


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", required=True, help="the folder ishi-train --export-samples wrote")
    parser.add_argument("--out", help="where to write the best held-out epoch's network")
    parser.add_argument("--evaluate", help="measure this network on the held-out samples and stop")
    parser.add_argument("--start-from", help="start from this network (its dimensions)")
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--pooling", action="store_true",
                        help="each block pools the board (a start without it grows into it)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--learning-rate", type=float, default=0.002)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--ownership-weight", type=float, default=1.0)
    parser.add_argument("--score-weight", type=float, default=0.5)
    parser.add_argument("--policy-weight", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--bf16", action="store_true", help="bfloat16 autocast (GPU)")
    parser.add_argument("--minutes", type=float, default=0.0,
                        help="stop once this many minutes have passed, inside an epoch if need be, "
                             "measuring and keeping that network too (0: no limit)")
    args = parser.parse_args()
    started = time.time()
    torch.manual_seed(args.seed)
    manifest = json.load(open(os.path.join(args.samples, "manifest.json")))
    score_scale = manifest["score_scale"]
    inputs = manifest["input_planes"] + 1
    device = torch.device(args.device)
    held_out = load_split(args.samples, manifest, "held-out")

    if args.evaluate:
        dimensions, vector = read_weights(args.evaluate)
        model = network_from(dimensions, vector)
        model.to(device)
        report(f"held out, {args.evaluate},", evaluate(model, held_out, device, score_scale))
        return
    if not args.out:
        parser.error("--out is needed to train")
    training = load_split(args.samples, manifest, "training")
    if not training:
        raise SystemExit("no training samples")
    sizes = sorted(training)
    if args.start_from:
        dimensions, vector = read_weights(args.start_from)
        model = network_from(dimensions, vector)
        print(f"starting from {args.start_from}: {dimensions['blocks']} blocks of {dimensions['channels']} channels"
              f"{', pooled' if model.pooled else ''}", flush=True)
        if args.pooling and not model.pooled:
            # Grown into a pooled network whose pooling starts silent: it judges as before.
            grown = ValueNet(model.inputs, model.channels, model.blocks, model.hidden_units, pooled=True)
            missing = grown.load_state_dict(model.state_dict(), strict=False).missing_keys
            assert all(key.startswith("pooling.") for key in missing), missing
            model = grown
            print("grown into a pooled network (the pooling weights start at zero)", flush=True)
    else:
        model = ValueNet(inputs, args.channels, args.blocks, args.hidden, pooled=args.pooling)
        with torch.no_grad():  # each block's second convolution starts small, as ishi's
            for block in range(args.blocks):
                model.convolutions[2 * block + 1].weight.mul_(0.1)
    if model.inputs != inputs:
        raise SystemExit(f"the network reads {model.inputs} planes, the samples have {inputs}")
    model.to(device)
    # The sizes learned: those trained here, and those the starting network had learned.
    learned = board_mask(sizes) | (read_weights(args.start_from)[0].get("sizes", 0) if args.start_from else 0)
    dimensions = {"inputs": model.inputs, "channels": model.channels, "blocks": model.blocks,
                  "hidden": model.hidden_units, "sizes": learned}
    if model.pooled:
        dimensions["pooled"] = 1
    for size in sizes:
        print(f"{size}x{size}: {training[size]['win'].shape[0]} training positions, "
              f"{held_out[size]['win'].shape[0] if size in held_out else 0} held out", flush=True)
    if device.type == "cuda":
        for groups in (training, held_out):
            for group in groups.values():
                for name in group:
                    group[name] = group[name].to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, betas=(0.9, 0.999),
                                  eps=1e-8, weight_decay=args.weight_decay)
    generator = torch.Generator().manual_seed(args.seed)
    steps_per_epoch = sum(math.ceil(training[size]["win"].shape[0] / args.batch) for size in sizes)
    total_steps = steps_per_epoch * args.epochs
    step = 0
    best = None
    for epoch in range(args.epochs):
        model.train()
        batches = []
        for size in sizes:
            order = torch.randperm(training[size]["win"].shape[0], generator=generator)
            batches += [(size, order[start:start + args.batch]) for start in range(0, len(order), args.batch)]
        shuffled = torch.randperm(len(batches), generator=generator)
        summed, positions, epoch_started = 0.0, 0, time.time()
        out_of_time = False
        for index in shuffled.tolist():
            if args.minutes and time.time() - started > 60 * args.minutes:
                out_of_time = True  # a device's lease is short: stop inside the epoch
                break
            size, indices = batches[index]
            symmetries = torch.randint(0, 8, (len(indices),), generator=generator).to(device)
            batch = batch_tensors(training[size], indices.to(training[size]["win"].device), size, device, symmetries)
            for group in optimizer.param_groups:
                group["lr"] = args.learning_rate * (1.0 - 0.9 * step / max(1, total_steps))
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=args.bf16):
                outputs = model(batch["inputs"])
            outputs = tuple(output.float() for output in outputs)
            win, huber, moves, owners, _ = losses(outputs, batch, score_scale)
            objective = (win + args.score_weight * huber + args.policy_weight * moves
                         + args.ownership_weight * owners).mean()
            optimizer.zero_grad(set_to_none=True)
            objective.backward()
            optimizer.step()
            step += 1
            summed += win.detach().sum()
            positions += len(indices)
        summed = float(summed)
        elapsed = time.time() - epoch_started
        part = " (stopped inside it: past --minutes)" if out_of_time else ""
        print(f"epoch {epoch + 1}{part}: training cross-entropy {summed / max(1, positions):.4f}, "
              f"{positions / elapsed:.0f} positions a second ({time.time() - started:.0f} s)", flush=True)
        figures = evaluate(model, held_out, device, score_scale)
        report("  held out", figures)
        entropy = mean_entropy(figures)
        if best is None or entropy < best[0]:
            best = (entropy, epoch + 1)
            write_weights(args.out, dimensions, model.to_vector())
        if out_of_time or (args.minutes and time.time() - started > 60 * args.minutes):
            print(f"stopping after epoch {epoch + 1}: past {args.minutes} minutes", flush=True)
            break
    print(f"wrote {args.out} (epoch {best[1]}, the best held out: {best[0]:.4f}) in {time.time() - started:.0f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
