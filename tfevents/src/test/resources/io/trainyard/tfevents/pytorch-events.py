"""Writes pytorch-events.tfevents, the fixture of EventFileReaderTest, with PyTorch's SummaryWriter."""

import glob
import shutil
import tempfile

import torch
from torch.utils.tensorboard import SummaryWriter

folder = tempfile.mkdtemp()
writer = SummaryWriter(log_dir=folder)
for step, loss in enumerate([1.0, 0.5, 0.25]):
    writer.add_scalar("loss", loss, step)
    writer.add_scalar("tensor_style", 3.0 + step, step, new_style=True)
    writer.add_histogram("weights", torch.arange(10.0) * step, step)
    writer.add_text("note", f"step {step}", step)
writer.close()
shutil.copy(glob.glob(f"{folder}/events.out.tfevents.*")[0], "pytorch-events.tfevents")
