/** Records of this package are null-marked: a component is never null unless it is {@code @Nullable}. */
@NullMarked
package io.trainyard.api.backends;

import org.jspecify.annotations.NullMarked;
