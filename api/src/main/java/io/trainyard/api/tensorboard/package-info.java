/** Records of this package are null-marked: a component is never null unless it is {@code @Nullable}. */
@NullMarked
package io.trainyard.api.tensorboard;

import org.jspecify.annotations.NullMarked;
