"""A small repository module, before and after moving to 2.0-style queries.

Run it to check both versions return the same results against in-memory SQLite:

    python examples/before_after.py

Needs SQLAlchemy 2.x. The legacy functions still work in 2.x (Query is
"legacy", not removed), which is what lets you migrate one function at a time.
"""
from sqlalchemy import ForeignKey, create_engine, delete, func, select, update
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    Session,
    mapped_column,
    relationship,
    selectinload,
)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    active: Mapped[bool] = mapped_column(default=True)
    orders: Mapped[list["Order"]] = relationship(back_populates="user")


class Order(Base):
    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    total: Mapped[int]
    user: Mapped[User] = relationship(back_populates="orders")


# ---------------------------------------------------------------- before (1.x)

def legacy_get(session, user_id):
    return session.query(User).get(user_id)  # warns in 2.x: use Session.get()


def legacy_active_names(session):
    return [u.name for u in session.query(User).filter_by(active=True).order_by(User.name).all()]


def legacy_count_active(session):
    return session.query(User).filter(User.active.is_(True)).count()


def legacy_first_big_spender(session, threshold):
    return (
        session.query(User)
        .join(User.orders)
        .filter(Order.total > threshold)
        .order_by(User.id)
        .first()
    )


def legacy_users_with_orders(session):
    return session.query(User).options(selectinload(User.orders)).order_by(User.id).all()


def legacy_deactivate(session, names):
    return session.query(User).filter(User.name.in_(names)).update(
        {User.active: False}, synchronize_session="fetch"
    )


# ----------------------------------------------------------------- after (2.0)

def get(session, user_id):
    return session.get(User, user_id)


def active_names(session):
    stmt = select(User.name).where(User.active.is_(True)).order_by(User.name)
    return list(session.scalars(stmt))


def count_active(session):
    return session.scalar(select(func.count()).select_from(User).where(User.active.is_(True)))


def first_big_spender(session, threshold):
    stmt = (
        select(User)
        .join(User.orders)
        .where(Order.total > threshold)
        .order_by(User.id)
        .limit(1)  # Query.first() added LIMIT 1; Result.first() does not
    )
    return session.scalars(stmt).first()


def users_with_orders(session):
    return session.scalars(select(User).options(selectinload(User.orders)).order_by(User.id)).all()


def deactivate(session, names):
    result = session.execute(update(User).where(User.name.in_(names)).values(active=False))
    return result.rowcount


def delete_user(session, user_id):
    session.execute(delete(Order).where(Order.user_id == user_id))
    session.execute(delete(User).where(User.id == user_id))


# ------------------------------------------------------------------ self-check

if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")  # Query.get() legacy warning is expected here
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as s:
        ann, bo, cy = User(name="ann"), User(name="bo"), User(name="cy", active=False)
        s.add_all([ann, bo, cy, Order(user=ann, total=50), Order(user=bo, total=500)])
        s.commit()

        assert legacy_get(s, 1) is get(s, 1)
        assert legacy_active_names(s) == active_names(s) == ["ann", "bo"]
        assert legacy_count_active(s) == count_active(s) == 2
        assert legacy_first_big_spender(s, 100) is first_big_spender(s, 100) is bo
        assert [u.id for u in legacy_users_with_orders(s)] == [u.id for u in users_with_orders(s)]
        s.rollback()

        assert legacy_deactivate(s, ["ann"]) == 1
        s.rollback()
        assert deactivate(s, ["ann"]) == 1
        assert ann.active is False  # ORM-enabled UPDATE synchronises the session by default
        delete_user(s, bo.id)
        assert count_active(s) == 0
        s.rollback()
    print("before/after versions agree")
