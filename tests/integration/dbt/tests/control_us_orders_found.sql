-- A control that must FAIL: dbt reports a test as failed when it returns rows, and the demo has one US order.
select id from {{ source('sales', 'orders') }} where region = 'US'
