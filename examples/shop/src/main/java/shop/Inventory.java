package shop;

/** Stock of one article in a store room of fixed capacity. */
public class Inventory {
    private final int capacity;
    private int stock;

    public Inventory(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
    }

    /** Takes in what fits and returns how many units did not. */
    public int receive(int units) {
        if (units <= 0) {
            return 0;
        }
        int room = capacity - stock;
        int taken = Math.min(units, room);
        stock += taken;
        return units - taken;
    }

    /** Ships {@code units} if there are that many. */
    public boolean ship(int units) {
        if (units <= 0) {
            throw new IllegalArgumentException("nothing to ship");
        }
        if (units > stock) {
            return false;
        }
        stock -= units;
        return true;
    }

    public String level() {
        if (stock == 0) {
            return "empty";
        } else if (stock * 4 < capacity) {
            return "low";
        } else if (stock == capacity) {
            return "full";
        }
        return "ok";
    }
}
