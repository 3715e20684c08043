"""What a training run leaves behind: TensorBoard scalars, progress lines, the model and its metrics."""
