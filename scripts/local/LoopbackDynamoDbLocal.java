import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local with its usual arguments, listening on 127.0.0.1 only (it has no option for the address), and
 * exits when its standard input ends: the parent holds the other end of that pipe, and the kernel closes it however the
 * parent dies (SIGKILL, an OOM kill), so the JVM never outlives it as an orphan.
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    exitWhenStdinEnds();
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector connector : ((Server) field.get(proxy)).getConnectors())
      ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
    proxy.join();
  }

  private static void exitWhenStdinEnds() {
    Thread watch = new Thread(() -> {
      try {
        while (System.in.read() != -1) {}
      } catch (java.io.IOException ignored) {
        // a broken pipe means the parent is gone as well
      }
      System.exit(0);
    }, "parent-watch");
    watch.setDaemon(true);
    watch.start();
  }
}
