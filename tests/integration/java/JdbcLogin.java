import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * One pgJDBC login: prints "OK <current_user>" or "ERROR <SQLState> <message>".
 * args: host port database user password
 */
public class JdbcLogin {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", args[3]);
    p.setProperty("password", args[4]);
    p.setProperty("connectTimeout", "20");
    p.setProperty("socketTimeout", "30");
    p.setProperty("sslmode", "disable");
    String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/" + args[2];
    try (Connection c = DriverManager.getConnection(url, p);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_user")) {
      rs.next();
      System.out.println("OK " + rs.getString(1));
    } catch (SQLException e) {
      System.out.println("ERROR " + e.getSQLState() + " " + e.getMessage());
    }
  }
}
