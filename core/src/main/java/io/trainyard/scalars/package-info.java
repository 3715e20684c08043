/**
 * The TensorBoard scalars of jobs (training loss, learning rate, validation metrics…), read from the event files
 * their trainers write: stored in chunks ({@link ScalarStore}), served as series downsampled for charts
 * ({@link Downsampling}) and followed live (by {@code io.trainyard.follow}). Named scalars, as TensorBoard names them, to
 * keep them apart from the server's own operational metrics ({@code io.trainyard.metrics}).
 */
package io.trainyard.scalars;
