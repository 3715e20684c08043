package io.trainyard.tensorboard;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TensorBoardProperties.class)
class TensorBoardConfiguration {
}
