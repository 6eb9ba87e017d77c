package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InventoryTest {
    @Test
    void whatFitsIsTaken() {
        Inventory room = new Inventory(10);
        assertEquals(0, room.receive(4));
        assertEquals("ok", room.level());
    }
}
