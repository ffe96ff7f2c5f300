import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/** Starts DynamoDB Local with its usual arguments, listening on 127.0.0.1 only (it has no option for the address). */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector connector : ((Server) field.get(proxy)).getConnectors())
      ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
    proxy.join();
  }
}
