/**
 * The local backend's HTTP endpoints: the agent protocol ({@code /agents/{id}/…}, spoken by agents with their
 * tokens) and the pool's view for people ({@code GET /agents}). Records here are null-marked: a component is
 * never null unless it is {@code @Nullable}.
 */
@NullMarked
package io.trainyard.backend.local.web;

import org.jspecify.annotations.NullMarked;
