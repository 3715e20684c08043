/**
 * Reads the scalars of TensorBoard event files as any trainer writes them (PyTorch's {@code SummaryWriter},
 * TensorFlow's summary writers): TFRecord framing with masked CRC32C checksums around serialized
 * {@code tensorflow.Event} protobufs. The few message fields needed are decoded by hand ({@link ProtoReader}):
 * a generated protobuf library would be the larger dependency for the agent jar, for five fields.
 *
 * <p>A reader never crashes on a damaged file: a record whose checksum fails, or that is cut short when the
 * file is complete, is skipped and reported as a {@link EventFileReader.Read#skipped() skip}.
 */
package io.trainyard.tfevents;
