"""Writes the benchmark's event file with PyTorch's SummaryWriter: POINTS scalars of one tag, train/loss."""

import glob
import math
import shutil
import sys
import tempfile

from torch.utils.tensorboard import SummaryWriter

target, points = sys.argv[1], int(sys.argv[2])
folder = tempfile.mkdtemp()
writer = SummaryWriter(log_dir=folder, max_queue=10_000, flush_secs=3600)
for step in range(points):
    writer.add_scalar("train/loss", 1.0 / math.sqrt(step + 1) + 0.01 * math.sin(step / 50.0), step)
writer.close()
shutil.move(glob.glob(f"{folder}/events.out.tfevents.*")[0], target)
